/**
 * The stack's CloudWatch dashboard and its alarms beside the dead-letter ones (cdk/queue-consumer.ts):
 *
 *   queues     messages visible / in flight and dead letters per queue; age of the oldest message
 *   functions  errors, throttles, duration (p50, p99) per function
 *   pipeline   the handlers' own metrics (lib/aws/metric-names.ts): pages, learns, articles by
 *              method, dead letters by kind, step times, blocks and words
 *
 * Alarms: the age of the oldest message of each work queue (work is stuck or falling behind), each
 * function's errors (invocations that crashed or timed out: record failures are reported per record
 * and are not errors) and throttles, and the age of each dead-letter queue's oldest message (before
 * SQS deletes it), to the same optional SNS topic as the dead-letter alarms.
 */
import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { Construct } from 'constructs';
import { METRIC, METRICS_NAMESPACE, SERVICE_NAMES, type MetricName, type MetricStep } from '../lib/aws/metric-names';
import type { QueueConsumer } from './queue-consumer';

type Step = MetricStep;

export interface SpiderDashboardProps {
  readonly consumers: Readonly<Record<Step, QueueConsumer>>;
  /** Alarm when a work queue's oldest message is this old (seconds). */
  readonly queueAgeAlarmSeconds: number;
  /** Alarm when a function has this many errors in five minutes. */
  readonly errorsAlarmThreshold: number;
  /** Alarm when a function is throttled this many times in five minutes. */
  readonly throttlesAlarmThreshold: number;
  /** Alarm when a step's oldest dead letter is this many days old (the dead-letter queues keep them 14). */
  readonly deadLetterAgeAlarmDays: number;
  readonly alarmActions?: cloudwatch.IAlarmAction[];
}

const PERIOD = Duration.minutes(5);
const STEPS: readonly Step[] = ['fetch', 'render', 'learn', 'apply'];

/** A custom metric of one step's function (dimension `service`, plus the metric's own if given). */
function custom(metric: MetricName, step: Step, statistic: string, label: string, dimension?: string): cloudwatch.Metric {
  return new cloudwatch.Metric({
    namespace: METRICS_NAMESPACE,
    metricName: metric.name,
    dimensionsMap: { service: SERVICE_NAMES[step], ...(dimension && metric.dimension ? { [metric.dimension.name]: dimension } : {}) },
    statistic,
    period: PERIOD,
    label,
  });
}

export class SpiderDashboard extends Construct {
  readonly dashboard: cloudwatch.Dashboard;
  readonly queueAgeAlarms: Readonly<Record<Step, cloudwatch.Alarm>>;
  readonly errorAlarms: Readonly<Record<Step, cloudwatch.Alarm>>;
  readonly throttleAlarms: Readonly<Record<Step, cloudwatch.Alarm>>;
  readonly deadLetterAgeAlarms: Readonly<Record<Step, cloudwatch.Alarm>>;

  constructor(scope: Construct, id: string, props: SpiderDashboardProps) {
    super(scope, id);
    const { consumers } = props;
    const each = <T>(fn: (step: Step, c: QueueConsumer) => T) => STEPS.map((s) => fn(s, consumers[s]));
    const max = { period: PERIOD, statistic: cloudwatch.Stats.MAXIMUM };
    const sum = { period: PERIOD, statistic: cloudwatch.Stats.SUM };

    const ageAlarms = {} as Record<Step, cloudwatch.Alarm>;
    const errorAlarms = {} as Record<Step, cloudwatch.Alarm>;
    const throttleAlarms = {} as Record<Step, cloudwatch.Alarm>;
    const deadLetterAgeAlarms = {} as Record<Step, cloudwatch.Alarm>;
    /** An alarm when the metric reaches the threshold in a 5-minute period, to the stack's alarm actions. */
    const alarm = (id: string, alarmDescription: string, metric: cloudwatch.IMetric, threshold: number) => {
      const a = new cloudwatch.Alarm(this, id, {
        alarmDescription,
        metric,
        threshold,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
      for (const action of props.alarmActions ?? []) a.addAlarmAction(action);
      return a;
    };
    for (const step of STEPS) {
      const c = consumers[step];
      ageAlarms[step] = alarm(
        `${title(step)}QueueAgeAlarm`,
        `The ${step} queue's oldest message is over ${props.queueAgeAlarmSeconds} s old: its function is stuck, failing or too slow for the input (spider:queueAgeAlarmSeconds).`,
        c.queue.metricApproximateAgeOfOldestMessage(max),
        props.queueAgeAlarmSeconds,
      );
      errorAlarms[step] = alarm(
        `${title(step)}ErrorsAlarm`,
        `The ${step} function failed ${props.errorsAlarmThreshold} or more invocations in 5 minutes (crashes or timeouts; spider:errorsAlarmThreshold). Its logs say why.`,
        c.function.metricErrors(sum),
        props.errorsAlarmThreshold,
      );
      // A throttled invocation never reaches the handler: its records come back later having spent a
      // receive, and one throttled on its last is moved to the dead-letter queue without a reason.
      throttleAlarms[step] = alarm(
        `${title(step)}ThrottlesAlarm`,
        `The ${step} function was throttled ${props.throttlesAlarmThreshold} or more times in 5 minutes: the account's Lambda concurrency is short of what the event source mappings ask (spider:throttlesAlarmThreshold). Throttled records spend receives.`,
        c.function.metricThrottles(sum),
        props.throttlesAlarmThreshold,
      );
      // The dead-letter alarm fires while anything is there; this one before SQS deletes what nobody read.
      deadLetterAgeAlarms[step] = alarm(
        `${title(step)}DeadLetterAgeAlarm`,
        `The ${step} dead-letter queue's oldest message is ${props.deadLetterAgeAlarmDays} days old: SQS deletes dead letters at 14 days. Read them (spider dead-letters), then redrive or let them go (spider:deadLetterAgeAlarmDays).`,
        c.deadLetterQueue.metricApproximateAgeOfOldestMessage(max),
        props.deadLetterAgeAlarmDays * 86_400,
      );
    }
    this.queueAgeAlarms = ageAlarms;
    this.errorAlarms = errorAlarms;
    this.throttleAlarms = throttleAlarms;
    this.deadLetterAgeAlarms = deadLetterAgeAlarms;

    const graph = (titleText: string, left: cloudwatch.IMetric[], extra: Partial<cloudwatch.GraphWidgetProps> = {}) =>
      new cloudwatch.GraphWidget({ title: titleText, left, width: 8, height: 6, ...extra });

    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      defaultInterval: Duration.hours(3),
      widgets: [
        [
          graph('Messages waiting', each((s, c) => c.queue.metricApproximateNumberOfMessagesVisible({ ...max, label: s }))),
          graph('Messages in flight', each((s, c) => c.queue.metricApproximateNumberOfMessagesNotVisible({ ...max, label: s }))),
          graph('Dead letters', each((s, c) => c.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ ...max, label: `${s} DLQ` }))),
        ],
        STEPS.map((s) => new cloudwatch.AlarmWidget({ title: `Age of oldest message: ${s}`, alarm: ageAlarms[s], width: 6, height: 6 })),
        [
          graph('Function errors', each((s, c) => c.function.metricErrors({ ...sum, label: s }))),
          graph('Function throttles', each((s, c) => c.function.metricThrottles({ ...sum, label: s }))),
          graph(
            'Function duration (p50, p99)',
            each((s, c) => [c.function.metricDuration({ period: PERIOD, statistic: 'p50', label: `${s} p50` }), c.function.metricDuration({ period: PERIOD, statistic: 'p99', label: `${s} p99` })]).flat(),
          ),
        ],
        [
          graph('Pipeline: pages, learns, articles', [
            custom(METRIC.pagesFetched, 'fetch', 'Sum', 'pages fetched (no browser)'),
            custom(METRIC.pagesToRender, 'fetch', 'Sum', 'pages sent to render'),
            custom(METRIC.pagesRendered, 'render', 'Sum', 'pages rendered'),
            custom(METRIC.sitesLearned, 'learn', 'Sum', 'sites learned'),
            ...METRIC.articlesExtracted.dimension.values.map((m) => custom(METRIC.articlesExtracted, 'apply', 'Sum', `articles (${m})`, m)),
          ]),
          graph(
            'Dead letters by kind',
            STEPS.flatMap((s) => METRIC.deadLetters.dimension.values.map((k) => custom(METRIC.deadLetters, s, 'Sum', `${s} ${k}`, k))),
          ),
          graph('Step times (p50, p90)', [
            ...(['p50', 'p90'] as const).flatMap((p) => [
              custom(METRIC.fetchMs, 'fetch', p, `fetch ${p}`),
              custom(METRIC.renderMs, 'render', p, `render ${p}`),
              custom(METRIC.learnMs, 'learn', p, `learn ${p}`),
              custom(METRIC.applyMs, 'apply', p, `apply ${p}`),
            ]),
          ]),
        ],
        [
          graph('Blocks per page', [custom(METRIC.blocksPerPage, 'render', 'Average', 'average'), custom(METRIC.blocksPerPage, 'render', 'p90', 'p90')]),
          graph('Words per article', [custom(METRIC.wordsPerArticle, 'apply', 'Average', 'average'), custom(METRIC.wordsPerArticle, 'apply', 'p10', 'p10')]),
        ],
      ],
    });
  }
}

function title(step: Step): string {
  return step[0].toUpperCase() + step.slice(1);
}
