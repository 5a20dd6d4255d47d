/**
 * cdk-nag's AWS Solutions rules: nothing unacknowledged, and every acknowledgment written out and
 * still needed (it names a finding the rules actually report).
 */
import { Validations, type App } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './synth';

interface Ack {
  readonly path: string;
  readonly id: string;
  readonly reason: string;
}

let app: App;

beforeAll(() => {
  ({ app } = buildApp());
});

function acknowledgments(root: IConstruct): Ack[] {
  const out: Ack[] = [];
  for (const node of root.node.findAll()) {
    for (const entry of node.node.metadata) {
      if (entry.type !== Validations.ACKNOWLEDGED_RULES_METADATA_KEY) continue;
      for (const [id, reason] of Object.entries(entry.data as Record<string, string>)) {
        out.push({ path: node.node.path, id: id.replace(/^annotation::/i, ''), reason });
      }
    }
  }
  return out;
}

/** Every finding, acknowledged or not: the same rules with acknowledgments ignored. */
function rawFindings(root: IConstruct): { ruleName: string; path: string }[] {
  const pack = new AwsSolutionsChecks();
  (pack as unknown as { isAcknowledged: () => boolean }).isAcknowledged = () => false;
  return pack.validateScope(root).violations.flatMap((v) => v.violatingResources.map((r) => ({ ruleName: v.ruleName, path: r.constructPath! })));
}

describe('cdk-nag AwsSolutions', () => {
  it('reports no unacknowledged error or warning', () => {
    const report = new AwsSolutionsChecks(undefined, { verbose: true }).validateScope(app);
    const summary = report.violations.map((v) => `${v.ruleName} (${v.severity}) at ${v.violatingResources.map((r) => r.constructPath).join(', ')}: ${v.description}`);
    expect(summary).toEqual([]);
    expect(report.success).toBe(true);
  });

  it('every acknowledgment has a written reason', () => {
    const acks = acknowledgments(app);
    expect(acks.length).toBeGreaterThan(0);
    for (const ack of acks) {
      expect(ack.reason.trim().length, `${ack.id} at ${ack.path}`).toBeGreaterThanOrEqual(40);
      expect(ack.reason, `${ack.id} at ${ack.path}`).toMatch(/\s/);
    }
  });

  it('every acknowledgment silences a finding the rules really report (none stale, none broad)', () => {
    const findings = rawFindings(app);
    for (const ack of acknowledgments(app)) {
      const matched = findings.filter((f) => f.ruleName === ack.id && (f.path === ack.path || f.path.startsWith(ack.path + '/')));
      expect(matched.length, `${ack.id} at ${ack.path}`).toBeGreaterThan(0);
    }
  });

  it('acknowledges only these rules, each for its stated cause', () => {
    const ids = [...new Set(acknowledgments(app).map((a) => a.id.replace(/\[.*$/, '')))].sort();
    // IAM5: object-prefix grants (`<bucket>/pages/*`) and page-file patterns (the fetch function's
    // `<bucket>/pages/*/*/served.html`); L1: Node 22 pinned to the project's Node.
    // (The access-log bucket needs no S1 acknowledgment: cdk-nag exempts log-target buckets.)
    expect(ids).toEqual(['AwsSolutions-IAM5', 'AwsSolutions-L1']);
    const iam5 = acknowledgments(app).filter((a) => a.id.startsWith('AwsSolutions-IAM5'));
    for (const ack of iam5) expect(ack.id).toMatch(/^AwsSolutions-IAM5\[Resource::<DataBucket[0-9A-F]+\.Arn>\/((archive|pages|rules|articles|redirects|feeds|drift|politeness|quarantine)\/\*|pages\/\*\/\*\/served\.html)\]$/);
  });

  it('the app as cdk/app.ts builds it synthesizes with the checks registered', () => {
    const { app: checked } = buildApp();
    Validations.of(checked).addPlugins(new AwsSolutionsChecks(checked));
    expect(() => checked.synth()).not.toThrow();
  });
});
