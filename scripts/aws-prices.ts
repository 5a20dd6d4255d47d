/**
 * AWS list prices, us-east-1, as published by AWS (aws.amazon.com/lambda/pricing, /sqs/pricing,
 * /s3/pricing) and unchanged since 2023 as far as this project knows; not re-checked online (this
 * machine has no internet). Free tiers ignored. Read by scripts/aws-cost-bench.ts (requests and
 * compute) and scripts/storage-cost.ts (storage).
 */
export const PRICES = {
  asOf: 'AWS list prices, us-east-1, as known up to 2025 (unchanged since 2023); not re-checked online',
  lambdaGbSecond: { x86_64: 0.0000166667, arm64: 0.0000133334 },
  lambdaRequest: 0.2 / 1e6,
  /** Standard queues; FIFO is $0.50 per million (the learn queue's few requests are priced as standard here). */
  sqsRequest: 0.4 / 1e6,
  /** S3 Standard: PUT, COPY, POST, LIST per request. */
  s3Put: 0.005 / 1000,
  /** S3 Standard: GET, SELECT and all other requests (HEAD). DELETE is free. */
  s3Get: 0.0004 / 1000,
  /** S3 storage per GB-month: Standard (first 50 TB), and Intelligent-Tiering's Frequent, Infrequent (30 days unread) and Archive Instant (90 days unread) tiers. */
  s3GbMonth: { standard: 0.023, frequent: 0.023, infrequent: 0.0125, archiveInstant: 0.004 },
  /** Intelligent-Tiering's monitoring and automation, per object of 128 KB or more a month (smaller ones are neither monitored nor tiered). */
  s3TieringMonitoring: 0.0025 / 1000,
  /** A lifecycle transition into Intelligent-Tiering, per object. */
  s3TieringTransition: 0.01 / 1000,
} as const;
