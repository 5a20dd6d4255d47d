/**
 * Prose for the demo news site: headlines, paragraphs, subheads, quotes, list items, captions and
 * reader comments, written from word lists and sentence templates.
 *
 * Each article gets a `Story` (a beat, an organisation, a subject, a place and a cast of people), and
 * a `StoryWriter` fills sentence templates from it, so the text of one page reads as one story and
 * differs from page to page. Sentence templates are drawn without replacement within a page.
 */
import { Rng } from './prng';

interface Beat {
  section: string;
  orgs: string[];
  subjects: string[];
  groups: string[];
  roles: string[];
}

const BEATS: Beat[] = [
  {
    section: 'Local',
    orgs: ['City Council', 'Planning Commission', 'Department of Public Works', "Mayor's Office", 'Parks Department'],
    subjects: ['zoning overhaul', 'property tax levy', 'downtown parking plan', 'stormwater project', 'library renovation', 'street repaving program', 'noise ordinance'],
    groups: ['residents', 'homeowners', 'shop owners', 'neighborhood associations', 'renters'],
    roles: ['council member', 'city planner', 'deputy mayor', 'neighborhood organizer', 'budget director'],
  },
  {
    section: 'Business',
    orgs: ['Chamber of Commerce', 'Regional Development Agency', 'Harborline Logistics', 'Summit Credit Union', 'Northway Grocers'],
    subjects: ['warehouse expansion', 'merger agreement', 'hiring freeze', 'retail strategy', 'small-business loan fund', 'price increase', 'office conversion plan'],
    groups: ['employees', 'shareholders', 'small-business owners', 'customers', 'suppliers'],
    roles: ['chief executive', 'economist', 'union representative', 'retail analyst', 'finance director'],
  },
  {
    section: 'Science',
    orgs: ['State University', 'Coastal Research Institute', 'Natural History Museum', 'Marine Biology Lab', 'Geological Survey office'],
    subjects: ['sediment survey', 'telescope upgrade', 'bird migration study', 'groundwater model', 'genome sequencing project', 'seismic monitoring network', 'field station'],
    groups: ['researchers', 'graduate students', 'volunteer observers', 'lab technicians', 'field scientists'],
    roles: ['lead researcher', 'professor of geology', 'research director', 'postdoctoral fellow', 'data scientist'],
  },
  {
    section: 'Health',
    orgs: ['County Health Department', 'Riverside General Hospital', 'Community Health Alliance', 'State Medical Board', 'Valley Clinic Network'],
    subjects: ['vaccination campaign', 'emergency room expansion', 'nurse staffing plan', 'mental health hotline', 'clinic closure', 'air quality advisory', 'prescription drug program'],
    groups: ['patients', 'nurses', 'family doctors', 'caregivers', 'older adults'],
    roles: ['public health officer', 'chief nursing officer', 'epidemiologist', 'hospital administrator', 'patient advocate'],
  },
  {
    section: 'Education',
    orgs: ['School Board', 'Unified School District', 'Community College', "Teachers' Association", 'Parent-Teacher Council'],
    subjects: ['school start time change', 'teacher contract', 'literacy program', 'campus consolidation plan', 'school lunch program', 'enrollment forecast', 'bond measure'],
    groups: ['parents', 'teachers', 'students', 'bus drivers', 'principals'],
    roles: ['superintendent', 'school board trustee', 'union president', 'curriculum director', 'high school principal'],
  },
  {
    section: 'Transport',
    orgs: ['Transit Authority', 'Department of Transportation', 'Regional Rail Commission', 'Port Authority', 'Airport Board'],
    subjects: ['bus network redesign', 'light rail extension', 'fare increase', 'bridge replacement', 'bike lane network', 'ferry schedule', 'highway widening project'],
    groups: ['commuters', 'bus riders', 'cyclists', 'truck drivers', 'delivery workers'],
    roles: ['transit planner', 'operations manager', 'rider advocate', 'traffic engineer', 'board chair'],
  },
  {
    section: 'Environment',
    orgs: ['Water Resources Board', 'Conservation District', 'Department of Environmental Quality', 'Watershed Council', 'Parks Foundation'],
    subjects: ['wetland restoration', 'water rate increase', 'tree canopy plan', 'recycling contract', 'flood barrier', 'wildfire buffer', 'river cleanup'],
    groups: ['farmers', 'anglers', 'landowners', 'volunteers', 'hikers'],
    roles: ['hydrologist', 'conservation manager', 'environmental attorney', 'wildlife biologist', 'program coordinator'],
  },
  {
    section: 'Technology',
    orgs: ['Broadband Cooperative', 'State Technology Office', 'Innovation District', 'Data Privacy Commission', 'Cybersecurity Task Force'],
    subjects: ['fiber rollout', 'data center proposal', 'facial recognition policy', 'open data portal', 'software contract', 'cell tower permit', 'ransomware recovery'],
    groups: ['subscribers', 'software developers', 'rural households', 'privacy advocates', 'startup founders'],
    roles: ['chief information officer', 'network engineer', 'privacy researcher', 'product manager', 'security analyst'],
  },
  {
    section: 'Housing',
    orgs: ['Housing Authority', 'Tenants Union', 'Land Trust', 'Building Department', 'Homeless Services Agency'],
    subjects: ['rent stabilization measure', 'affordable housing tower', 'eviction moratorium', 'shelter expansion', 'inspection backlog', 'accessory dwelling rule', 'public housing repair plan'],
    groups: ['tenants', 'landlords', 'first-time buyers', 'shelter residents', 'builders'],
    roles: ['housing advocate', 'property manager', 'real estate economist', 'building inspector', 'tenant organizer'],
  },
  {
    section: 'Energy',
    orgs: ['Public Utility District', 'Energy Commission', 'Solar Cooperative', 'Grid Reliability Council', 'Wind Power Alliance'],
    subjects: ['solar farm', 'rate hike', 'battery storage site', 'transmission line', 'heat pump rebate', 'power plant closure', 'outage response plan'],
    groups: ['ratepayers', 'utility workers', 'rooftop solar owners', 'rural customers', 'manufacturers'],
    roles: ['utility spokesperson', 'grid engineer', 'energy analyst', 'commissioner', 'consumer advocate'],
  },
];

const FIRST_NAMES = [
  'Jane', 'Maria', 'David', 'Aisha', 'Tomás', 'Priya', 'Samuel', 'Grace', 'Kenji', 'Olivia', 'Marcus', 'Leila',
  'Daniel', 'Fatima', 'Ethan', 'Sofia', 'Omar', 'Hannah', 'Lucas', 'Mei', 'Noah', 'Isabel', 'Victor', 'Chloe',
  'Rafael', 'Nadia', 'Peter', 'Amara', 'Julian', 'Elena', 'Kwame', 'Rosa', 'Henry', 'Yuki', 'Andre', 'Claire',
];

const LAST_NAMES = [
  'Doe', 'Okafor', 'Chen', 'Alvarez', 'Patel', 'Lindqvist', 'Brennan', 'Nakamura', 'Haddad', 'Moreau', 'Kowalski',
  'Osei', 'Ferreira', 'Gallagher', 'Sato', 'Ibrahim', 'Novak', 'Reyes', 'Thornton', 'Mensah', 'Castillo', 'Weber',
  'Delgado', 'Sørensen', 'Whitaker', 'Abara', 'Rossi', 'Kim', 'Hughes', 'Bianchi', 'Nguyen', 'Fischer', 'Mbeki',
];

const PLACES = [
  'Millbrook', 'East Riverside', 'Cedar Heights', 'Old Town', 'Northgate', 'Willow Park', 'Bayview', 'Stonebridge',
  'Maple Hollow', 'Fairhaven', 'Eastport', 'the Harbor District', 'Lakeshore', 'Pine Ridge', 'South Meadow', 'Ashford',
];

const ADJECTIVES = [
  'ambitious', 'contested', 'long-delayed', 'modest', 'sweeping', 'revised', 'controversial', 'landmark', 'temporary',
  'costly', 'scaled-back', 'phased', 'pilot', 'two-year', 'voluntary', 'expanded',
];

const PREDICATES = ['uncertain', 'ambitious', 'realistic', 'tight', 'optimistic', 'fragile', 'achievable', 'unclear'];

const TIMEFRAMES = [
  'by the end of the year', 'within the next 18 months', 'before the summer', 'over the coming decade',
  'as early as next spring', 'by 2028', 'later this fall', 'in the next budget cycle', 'within weeks',
];

/** Speech verbs after a quote ("…,” Okafor said.) */
const SAYS = ['said', 'noted', 'argued', 'acknowledged', 'warned', 'added', 'told reporters', 'wrote in an email'];
/** Speech verbs before a clause (Okafor said the plan …). */
const SAYS_THAT = ['said', 'noted', 'argued', 'acknowledged', 'warned', 'told reporters', 'wrote in an email that', 'said on Tuesday that'];

const MONTHS = [
  'January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December',
];

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

const NUMBER_WORDS = ['two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];

/** Body sentences. Slots: see `StoryWriter.fill`. */
const BODY_SENTENCES = [
  'The {adj} {subject} would affect roughly {num},000 {group} across {place}, according to figures released on {weekday}.',
  '{whoRole} {sayThat} the proposal had been “years in the making” and deserved a fair hearing.',
  'Officials at the {org} have not said how much the {subject} will ultimately cost.',
  'Critics argue that the {subject} moves too quickly and leaves {group} with few options.',
  '{who} {sayThat} the timeline remained {pred}, but that work could begin {time}.',
  'In {month}, the {org} voted {vote} to move forward with {aAdj} version of the plan.',
  'The {subject} is expected to cost about {money}, a figure that has grown by {pct} percent since the first estimate.',
  'Several {group} who spoke at a public meeting last {weekday} described the changes as overdue.',
  '“We have been asking for this for a long time,” {said} {resident}, who has lived in {place} for {num} years.',
  'Not everyone is convinced.',
  'The {org} said in a statement that it would publish {aAdj} report on the {subject} {time}.',
  'Similar efforts in neighboring towns have produced mixed results, with some {group} reporting longer waits and higher fees.',
  'According to a survey conducted in {month}, {pct} percent of {group} support the idea, while {pct2} percent oppose it.',
  '{who} {sayThat} the {org} had underestimated the demand from {group}.',
  'Funding for the {subject} comes partly from a state grant and partly from local bonds approved by voters {numWord} years ago.',
  'The debate has exposed a familiar divide between longtime {group} and newer arrivals.',
  'A spokesperson for the {org} declined to comment on the details, citing ongoing negotiations.',
  'Data reviewed by {site} show that complaints about the {subject2} rose sharply after {month}.',
  'Supporters point out that the {subject} could create as many as {num}0 permanent jobs.',
  '“The numbers simply don’t add up,” {who} {say}. “We need a plan that works for everyone, not just a few.”',
  'The next public hearing is scheduled for {weekday}, {month} {day}, at the {place2} Community Center.',
  'Some of the strongest opposition has come from {group} near the {place2} waterfront.',
  'It is not the first time the {org} has faced questions about the {subject}.',
  'Earlier drafts of the plan included {aAdj} provision that was later dropped after pushback from {group}.',
  '{who} {sayThat} the changes would be reviewed again {time}.',
  'The {subject} has been a recurring issue in local elections, and several candidates have promised to revisit it.',
  'Experts say the outcome could shape how other communities approach the {subject2} for years to come.',
  'For now, {group} are left waiting for clearer answers.',
  'In interviews, more than a dozen {group} said they had learned about the {subject} only through social media.',
  'The {org} estimates that the first phase alone will take {num} months to complete.',
  'Under the current proposal, the {subject} would be phased in gradually, starting in {place}.',
  'Analysts at a regional research group called the projections {pred}, noting that similar forecasts had missed the mark before.',
  '“There is a real opportunity here, but we have to get the details right,” {who} {say}.',
  'The figures, which have not been independently verified, suggest a {pct} percent increase over last year.',
  'The change comes after {aAdj} review that took nearly {numWord} years.',
  'Members of the public can submit written comments through the end of {month}.',
  'Meanwhile, {who} has called for an independent audit of the {subject}.',
  'The {org} first proposed the idea in {year}, but it stalled amid budget shortfalls.',
  'Whether the plan survives the next budget cycle remains an open question.',
  'At a crowded meeting on {weekday} evening, speakers lined up for more than {numWord} hours to weigh in.',
  '{whoRole} {sayThat} {group} deserve more notice before changes of this size take effect.',
  'Records obtained by {site} show the {org} spent {money} on consultants last year alone.',
  'The {subject2} is a separate matter, officials said, though the two are often discussed together.',
  'Turnout at the last three hearings was the highest the {org} has recorded in more than a decade.',
  '{who} pointed to {place2} as an example of what can go wrong when planning is rushed.',
  'The {org} has set aside {money} for outreach, including mailers in four languages.',
  'By some estimates, {group} in {place} already pay {pct} percent more than the regional average.',
  'That argument has gained ground as costs have climbed.',
  'Even supporters concede that the {subject} will not solve every problem on its own.',
  '{who} said the {org} would hold office hours in {place2} for anyone with questions.',
  'Two board members who voted against the measure said they feared it would be hard to reverse.',
  'The original deadline of {month} {day} has already slipped twice.',
  'A legal challenge filed by a coalition of {group} is pending in county court.',
  '“I don’t think anyone expected it to take this long,” {who} {say}.',
  'Staff have recommended {aAdj} approach that would pair the {subject} with new reporting requirements.',
  'Much of the disagreement comes down to who should pay, and when.',
];

/** Sentences for a pull quote (a blockquote). */
const QUOTE_SENTENCES = [
  'We are not going to fix the {subject} overnight, but we can stop making it worse for {group}.',
  'Every month of delay costs {group} in {place} real money, and they are the ones who end up paying for it.',
  'This is the most significant change to the {subject} in a generation, and {group} deserve a say in it.',
  'People in {place} want to be heard before the {org} makes a decision, not after.',
  'If we get the {subject} right, {place} becomes a model for the rest of the region.',
  'Nobody I talked to in {place} was against the {subject}. They were against how it was done.',
  'We owe it to the next generation of {group} to plan for what is coming, not what has already passed.',
  'The {org} has the authority to act on the {subject}. What it needs now is the will.',
  'I have seen a lot of plans come and go in {place}. The {subject} feels different.',
  'Transparency is not optional when {money} of public money is involved.',
];

const SUBHEADS = [
  'What the {subject} would change',
  'A long road to approval for the {subject}',
  'Who pays for the {subject}',
  'Questions about the {subject} in {place2}',
  'How {group} in {place2} are reacting',
  'What happens next for the {org}',
  'The cost of waiting in {place2}',
  'A divided {org}',
  'Lessons from {place2}',
  'The {money} question',
  'Pushback from {group}',
  'An uncertain timeline for {group}',
  'Inside the {month} vote',
  'What {group} say they need',
];

const LIST_INTROS = [
  'The {adj} proposal for {place} includes {numWord} key provisions:',
  'Here is what the {org} approved on {weekday}, {month} {day}:',
  'Among the changes to the {subject} under consideration since {month}:',
  'The main points of the {subject} plan, according to a {month} summary, are:',
  'According to the {org}, the first phase in {place} covers:',
  'A draft circulated to {group} in {month} lists the following:',
];

const LIST_ITEMS = [
  'The {subject} would be phased in over {numWord} years, beginning in {place}',
  'A new {num}-member oversight board would review spending every {month}',
  '{cGroup} could apply for exemptions until {month} {day}',
  'An estimated {money} would come from state and federal grants',
  'Public hearings are planned for {month} {day} and {month2} {day2}',
  'Quarterly progress reports on the {subject} would be posted online from {month}',
  'A pilot program would start in {place} with {num} participating households',
  'Fees for {group} would be capped at current levels through {year2}',
  'An independent audit of the {subject} would be completed by {month} {year2}',
  'The {org} would hire {num} additional staff members at a cost of {money}',
  'A hotline in {numWord} languages would answer questions from {group}',
  'Contracts over {money} would require a public vote of the {org}',
];

const DEKS = [
  'The {adj} {subject} has divided {group} in {place}, and the final vote is still weeks away.',
  'Officials say the {subject} is overdue. {cGroup} say they were never asked.',
  'A {money} plan from the {org} promises relief, but the details remain thin.',
  'The {org} is under pressure to explain how the {subject} will be paid for.',
  'After months of delays, the {subject} is back on the agenda, and the stakes have grown.',
  'What {group} in {place} need to know about the {adj} {subject}.',
];

const HEADLINES = [
  '{Org} Approves {Adj} {Subject} Despite Objections From {Group}',
  '{Place} {Group} Push Back Against {Subject}',
  'What the New {Subject} Means for {Group} in {Place}',
  '{Org} Delays Vote on {Subject} Amid Rising Costs',
  '{Subject} Could Cost {Money}, Report Finds',
  'After Years of Debate, {Place} Moves Ahead With {Subject}',
  '{Group} Say {Subject} Has Left Them Behind',
  'Inside the Fight Over the {Place} {Subject}',
  '{Org} Faces Questions Over {Adj} {Subject}',
  'Why the {Subject} Is Back on the Agenda in {Place}',
  '{Org} Unveils {Adj} Plan to Overhaul {Subject}',
  'Survey: Most {Group} in {Place} Back {Subject}',
  '{Place} {Subject} Hits New Snag as Deadline Slips',
  '{Org} Quietly Expands {Subject} to {Place}',
];

const CAPTIONS = [
  '{cGroup} gathered outside the {org} offices in {place} before the vote.',
  'A section of {place} that would be affected by the {subject}.',
  '{name} speaks during a public hearing on the {subject}.',
  'Work crews in {place2} earlier this year.',
  'The {org} meets in {place} on {weekday}.',
];

const COMMENT_SENTENCES = [
  'Finally someone is paying attention to this.',
  'I have lived here {num} years and I have never seen the {subject2} this bad.',
  'Who exactly is going to pay for all of this?',
  'Thanks for covering the meeting, I couldn’t make it.',
  'The {org} promises the same thing every election cycle.',
  'My neighbors and I wrote to them twice and never got a reply.',
  'This article leaves out the part about the {subject2}.',
  'Does anyone know if the hearing will be streamed online?',
  'Same story in {place2}. Nothing changed for years.',
  'Honestly I think this is a good idea, even if it costs more up front.',
  'I’ll believe it when I see it.',
  'The survey numbers look off to me.',
  'We moved to {place} for the schools and now this.',
  'Somebody should ask where the last grant money went.',
  'Great reporting as always.',
  'It’s easy to complain, but nobody ever shows up to the meetings.',
  'Can we get a follow-up on what happened with the {subject2}?',
  'My commute already takes an hour. Please don’t make it worse.',
  'This is exactly why local news matters.',
  'Not sure why this is so controversial, every other city already does it.',
];

const HANDLE_WORDS = ['river', 'oak', 'blue', 'north', 'quiet', 'harbor', 'maple', 'early', 'cedar', 'lucky', 'pine', 'sunny'];

export interface Person {
  name: string;
  last: string;
  role: string;
}

export interface Story {
  section: string;
  org: string;
  subject: string;
  /** A second, related subject, mentioned in passing. */
  subject2: string;
  group: string;
  place: string;
  place2: string;
  cast: Person[];
  siteName: string;
}

export function personName(rng: Rng): string {
  return `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`;
}

export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/ø/g, 'o')
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

const SMALL_WORDS = new Set(['a', 'an', 'and', 'as', 'at', 'but', 'by', 'for', 'from', 'in', 'of', 'on', 'or', 'the', 'to', 'with']);

export function titleCase(text: string): string {
  return text
    .split(' ')
    .map((w, i) => (i > 0 && SMALL_WORDS.has(w) ? w : w.replace(/(^|-)([a-z])/g, (_, sep: string, c: string) => sep + c.toUpperCase())))
    .join(' ');
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** All section names the beats use, for site navigation. */
export const SECTIONS = BEATS.map((b) => b.section);

export function createStory(rng: Rng, siteName: string): Story {
  const beat = rng.pick(BEATS);
  const [subject, subject2] = rng.sample(beat.subjects, 2);
  const [place, place2] = rng.sample(PLACES, 2);
  const roles = rng.shuffle(beat.roles);
  const cast = Array.from({ length: 3 }, (_, i) => {
    const first = rng.pick(FIRST_NAMES);
    const last = rng.pick(LAST_NAMES);
    return { name: `${first} ${last}`, last, role: roles[i % roles.length] };
  });
  return { section: beat.section, org: rng.pick(beat.orgs), subject, subject2, group: rng.pick(beat.groups), place, place2, cast, siteName };
}

/** Writes one story's text. Each page has its own writer (and its own random stream). */
export class StoryWriter {
  private readonly introduced = new Set<string>();
  private readonly pools = new Map<readonly string[], string[]>();

  constructor(
    private readonly rng: Rng,
    readonly story: Story,
  ) {}

  headline(): string {
    return this.fill(this.rng.pick(HEADLINES));
  }

  dek(): string {
    return this.fill(this.rng.pick(DEKS));
  }

  subhead(): string {
    return capitalize(this.fill(this.draw(SUBHEADS)));
  }

  /** A paragraph of `sentences` sentences; the first paragraph (`lede`) opens with a dateline. */
  paragraph(sentences: number, lede = false): string {
    const picked = Array.from({ length: sentences }, () => this.draw(BODY_SENTENCES));
    // At least one sentence with slots, so that no paragraph is the same on two pages.
    while (!picked.some((t) => t.includes('{'))) picked.push(this.draw(BODY_SENTENCES));
    const text = picked.map((t) => capitalize(this.fill(t))).join(' ');
    return lede ? `${this.story.place.replace(/^the /, '').toUpperCase()} — ${text}` : text;
  }

  listIntro(): string {
    return capitalize(this.fill(this.rng.pick(LIST_INTROS)));
  }

  listItems(count: number): string[] {
    return this.rng.sample(LIST_ITEMS, count).map((t) => capitalize(this.fill(t)));
  }

  /** A pull quote in curly quotes, two sentences. */
  pullQuote(): string {
    const [a, b] = this.rng.sample(QUOTE_SENTENCES, 2);
    return `“${this.fill(a)} ${this.fill(b)}”`;
  }

  caption(): string {
    return capitalize(this.fill(this.rng.pick(CAPTIONS)));
  }

  /** A reader comment, one to three sentences. */
  comment(): string {
    return Array.from({ length: this.rng.int(1, 3) }, () => capitalize(this.fill(this.draw(COMMENT_SENTENCES)))).join(' ');
  }

  commenterHandle(): string {
    const first = slugify(this.rng.pick(FIRST_NAMES));
    return this.rng.chance(0.5) ? `${first}_${this.rng.pick(HANDLE_WORDS)}${this.rng.int(1, 99)}` : personName(this.rng);
  }

  tags(): string[] {
    const s = this.story;
    return [s.section, titleCase(s.subject), s.place.replace(/^the /, ''), s.org];
  }

  /** The next template of a list, drawn without replacement (the list is reshuffled once used up). */
  private draw(list: readonly string[]): string {
    let pool = this.pools.get(list);
    if (!pool || pool.length === 0) {
      pool = this.rng.shuffle(list);
      this.pools.set(list, pool);
    }
    return pool.pop()!;
  }

  /** Mentions a cast member: full name with role the first time, last name afterwards. */
  private who(withRole: boolean): string {
    const p = this.rng.pick(this.story.cast);
    if (this.introduced.has(p.name)) return p.last;
    this.introduced.add(p.name);
    return withRole ? `${p.name}, ${article(p.role)} ${p.role} with the ${this.story.org},` : p.name;
  }

  private fill(template: string): string {
    const s = this.story;
    const r = this.rng;
    const slots: Record<string, () => string> = {
      adj: () => r.pick(ADJECTIVES),
      aAdj: () => withArticle(r.pick(ADJECTIVES)),
      Adj: () => titleCase(r.pick(ADJECTIVES)),
      pred: () => r.pick(PREDICATES),
      subject: () => s.subject,
      Subject: () => titleCase(s.subject),
      subject2: () => s.subject2,
      org: () => s.org,
      Org: () => s.org,
      group: () => s.group,
      Group: () => titleCase(s.group),
      cGroup: () => capitalize(s.group),
      place: () => s.place,
      Place: () => capitalize(s.place.replace(/^the /, '')),
      place2: () => s.place2.replace(/^the /, ''),
      site: () => s.siteName,
      who: () => this.who(false),
      whoRole: () => this.who(true),
      resident: () => personName(r),
      name: () => r.pick(s.cast).name,
      say: () => r.pick(SAYS),
      sayThat: () => r.pick(SAYS_THAT),
      said: () => r.pick(['said', 'added', 'recalled']),
      time: () => r.pick(TIMEFRAMES),
      month: () => r.pick(MONTHS),
      month2: () => r.pick(MONTHS),
      weekday: () => r.pick(WEEKDAYS),
      day: () => String(r.int(2, 28)),
      day2: () => String(r.int(2, 28)),
      num: () => String(r.int(3, 40)),
      numWord: () => r.pick(NUMBER_WORDS),
      pct: () => String(r.int(12, 68)),
      pct2: () => String(r.int(9, 30)),
      vote: () => `${r.int(5, 9)}-${r.int(0, 4)}`,
      money: () => money(r),
      Money: () => money(r),
      year: () => String(r.int(2014, 2023)),
      year2: () => String(r.int(2027, 2031)),
    };
    return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
      const slot = slots[name];
      if (!slot) throw new Error(`unknown prose slot ${whole}`);
      return slot();
    });
  }
}

function money(r: Rng): string {
  return r.chance(0.5) ? `$${r.int(2, 95)} million` : `$${r.int(1, 9)}.${r.int(1, 9)} million`;
}

function article(word: string): string {
  return /^[aeiou]/i.test(word) ? 'an' : 'a';
}

function withArticle(word: string): string {
  return `${article(word)} ${word}`;
}
