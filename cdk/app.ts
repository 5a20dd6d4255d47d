/** The CDK app: one Spider stack, checked against cdk-nag's AWS Solutions rules at every synth. */
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { settingsFrom } from './settings';
import { SpiderStack } from './spider-stack';

const app = new App();
new SpiderStack(app, 'Spider', {
  description: 'spider: self-learning web article extractor (render → learn → apply)',
  settings: settingsFrom(app.node),
  // Environment-agnostic unless the CLI knows the account and region (synth works without credentials).
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
