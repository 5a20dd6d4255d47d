/**
 * The data bucket: the embedded store's key layout (lib/store/keys.ts) in S3.
 *
 * - private (Block Public Access, bucket-owner-enforced ownership), TLS only (bucket policy denies
 *   aws:SecureTransport=false), S3-managed encryption (SSE-S3);
 * - versioned, so earlier rules (`rules/<site>.json`) can be restored; old versions expire;
 * - lifecycle: archived HTML (`archive/`, only render's input) expires; rendered pages (`pages/`:
 *   feature documents and DOM snapshots, the bulk of the data, read again only by relearns) move to
 *   Intelligent-Tiering; the per-host rate-limit slots' old versions (`politeness/`, rewritten at every
 *   page request) expire after a day; incomplete multipart uploads are aborted;
 * - server access logs go to a second bucket that expires them.
 */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { keyPrefixes } from '../lib/store/keys';

export interface DataBucketProps {
  readonly archiveExpirationDays: number;
  readonly pagesTieringDays: number;
  readonly noncurrentVersionExpirationDays: number;
  readonly accessLogExpirationDays: number;
}

export class DataBucket extends Construct {
  readonly bucket: s3.Bucket;
  readonly accessLogs: s3.Bucket;

  constructor(scope: Construct, id: string, props: DataBucketProps) {
    super(scope, id);

    this.accessLogs = new s3.Bucket(this, 'AccessLogs', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      // Server access log delivery supports SSE-S3 only.
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      lifecycleRules: [{ id: 'expire-access-logs', expiration: Duration.days(props.accessLogExpirationDays) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.bucket = new s3.Bucket(this, 'Bucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      versioned: true,
      serverAccessLogsBucket: this.accessLogs,
      serverAccessLogsPrefix: 'data/',
      lifecycleRules: [
        { id: 'expire-archived-html', prefix: keyPrefixes.archive, expiration: Duration.days(props.archiveExpirationDays) },
        {
          id: 'tier-rendered-pages',
          prefix: keyPrefixes.pages,
          transitions: [{ storageClass: s3.StorageClass.INTELLIGENT_TIERING, transitionAfter: Duration.days(props.pagesTieringDays) }],
        },
        {
          // politeness/hosts/<host>.json is overwritten at every page request to its host (one a second
          // for a busy host): on a versioned bucket each write leaves a noncurrent version, and an object
          // with millions of versions gets the bucket's PUTs and DELETEs throttled (503 Slow Down, S3's
          // troubleshooting guide). A slot's history is worth nothing: keep it a day, the least S3 allows.
          id: 'expire-old-politeness-slots',
          prefix: keyPrefixes.politeness,
          noncurrentVersionExpiration: Duration.days(1),
        },
        {
          id: 'expire-old-versions',
          noncurrentVersionExpiration: Duration.days(props.noncurrentVersionExpirationDays),
          abortIncompleteMultipartUploadAfter: Duration.days(1),
        },
        { id: 'remove-expired-delete-markers', expiredObjectDeleteMarker: true },
      ],
      // Data outlives the stack: `cdk destroy` leaves the bucket (docs/aws.md says how to empty it).
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }
}
