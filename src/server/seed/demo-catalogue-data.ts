/**
 * The demo catalogue's content (docs/decisions/0016-first-look.md): eight educators,
 * forty courses across every category, the learners who fill them. Plain data; the
 * seed (demo-catalogue.ts) turns it into rows.
 */

export interface DemoEducator {
  email: string;
  firstName: string;
  lastName: string;
  city: string;
  headline: string;
  bio: string;
  subjects: string[];
}

/** Grace (demo-users.ts) is the first; these seven join her. */
export const DEMO_EDUCATORS: DemoEducator[] = [
  {
    email: 'amara@agora.local',
    firstName: 'Amara',
    lastName: 'Okafor',
    city: 'London',
    headline: 'Languages you can use on Monday',
    bio: 'Interpreter for twelve years, teacher for eight. I teach French and Spanish through conversation first and grammar when you need it.',
    subjects: ['French', 'Spanish', 'Writing'],
  },
  {
    email: 'kenji@agora.local',
    firstName: 'Kenji',
    lastName: 'Tanaka',
    city: 'Berlin',
    headline: 'Guitar, piano and the joy of playing together',
    bio: 'Session musician and patient teacher. Most of my learners had never held an instrument; by the last class they play a song for each other.',
    subjects: ['Guitar', 'Piano', 'Music theory'],
  },
  {
    email: 'lucia@agora.local',
    firstName: 'Lucía',
    lastName: 'Fernández',
    city: 'Barcelona',
    headline: 'Home cooking from the Mediterranean',
    bio: 'I ran a small restaurant in Gràcia for ten years. Now I teach the dishes my guests asked about, in my kitchen and online.',
    subjects: ['Cooking', 'Baking'],
  },
  {
    email: 'priya@agora.local',
    firstName: 'Priya',
    lastName: 'Sharma',
    city: 'Manchester',
    headline: 'Move well, breathe well',
    bio: 'Yoga teacher and physiotherapist. Gentle, practical classes for busy people and stiff backs.',
    subjects: ['Yoga', 'Mindfulness', 'Running'],
  },
  {
    email: 'oskar@agora.local',
    firstName: 'Oskar',
    lastName: 'Lindqvist',
    city: 'Stockholm',
    headline: 'Science and numbers, explained with your hands',
    bio: 'Former physics researcher. I build experiments from kitchen things and explain the maths behind the world around us.',
    subjects: ['Physics', 'Astronomy', 'Statistics'],
  },
  {
    email: 'fatima@agora.local',
    firstName: 'Fatima',
    lastName: 'Haddad',
    city: 'Paris',
    headline: 'Small business, big clarity',
    bio: 'Founded two companies and advised fifty more. I teach the plain skills behind a business that lasts: numbers, pitches and stories.',
    subjects: ['Entrepreneurship', 'Finance', 'Copywriting'],
  },
  {
    email: 'mateo@agora.local',
    firstName: 'Mateo',
    lastName: 'Costa',
    city: 'Lisbon',
    headline: 'Pictures, chess and everything in between',
    bio: 'Photographer by trade, chess coach by passion. Classes with plenty of practice and very little lecturing.',
    subjects: ['Photography', 'Chess', 'Drawing'],
  },
];

/** Learners who fill the sessions and write the reviews (besides Ada and Alan). */
export const DEMO_LEARNERS: [string, string, string][] = [
  ['Maya', 'Patel', 'London'],
  ['Noah', 'Schmidt', 'Berlin'],
  ['Chloe', 'Martin', 'Paris'],
  ['Yusuf', 'Kaya', 'Manchester'],
  ['Ines', 'Santos', 'Lisbon'],
  ['Liam', 'Murphy', 'Dublin'],
  ['Sofia', 'Rossi', 'Barcelona'],
  ['Arjun', 'Gupta', 'New York'],
  ['Freya', 'Larsen', 'Stockholm'],
  ['Omar', 'Haddad', 'Paris'],
  ['Emma', 'Walsh', 'London'],
  ['Lucas', 'Weber', 'Berlin'],
  ['Zoe', 'Evans', 'Manchester'],
  ['Hugo', 'Dubois', 'Paris'],
  ['Mei', 'Chen', 'New York'],
  ['Nils', 'Andersson', 'Stockholm'],
  ['Layla', 'Khan', 'London'],
  ['Diego', 'Lopez', 'Barcelona'],
  ['Clara', 'Fischer', 'Berlin'],
  ['Kwame', 'Mensah', 'London'],
  ['Astrid', 'Nielsen', 'Stockholm'],
  ['Rohan', 'Shah', 'Manchester'],
  ['Elif', 'Yilmaz', 'Berlin'],
  ['Tomás', 'Silva', 'Lisbon'],
];

export const learnerEmail = (first: string) =>
  `${first
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()}@agora.local`;

/** When a course's sessions fall: a finished one (and a next), one under way, one soon, one later. */
export type Timing = 'past' | 'running' | 'soon' | 'later';

export interface DemoCourse {
  /** Index: 0 is Grace, 1..7 the educators above. */
  by: number;
  category: string;
  title: string;
  summary: string;
  learn: [string, string, string];
  level: 'all' | 'beginner' | 'intermediate' | 'advanced';
  /** null: online; else the city of an in-person course. */
  city: string | null;
  priceCents: number;
  currency: 'usd' | 'eur' | 'gbp';
  installments: number | null;
  refundPolicy: 'flexible' | 'moderate' | 'strict';
  timing: Timing;
  /** Weeks the session runs, capacity, and how full it is (1 = full, with a waitlist). */
  weeks: number;
  capacity: number;
  fill: number;
  /** Local start hour and class length in minutes, in the course's zone. */
  hour: number;
  minutes: number;
  timeZone: string;
  address?: string;
}

const NY = 'America/New_York';
const LDN = 'Europe/London';
const BER = 'Europe/Berlin';
const BCN = 'Europe/Madrid';
const PAR = 'Europe/Paris';
const STO = 'Europe/Stockholm';
const LIS = 'Europe/Lisbon';

// prettier-ignore
export const DEMO_COURSES: DemoCourse[] = [
  // Grace: the three courses of the first demo (kept by title), and two more.
  { by: 0, category: 'coding', title: 'Python for Curious Beginners', summary: 'Write your first real programs in six friendly evening classes: variables, loops, functions and a small game.', learn: ['Reading and writing Python with confidence', 'Loops, functions and lists', 'A small text adventure you can show your friends'], level: 'beginner', city: null, priceCents: 12000, currency: 'usd', installments: 3, refundPolicy: 'moderate', timing: 'soon', weeks: 6, capacity: 12, fill: 0.4, hour: 18, minutes: 90, timeZone: NY },
  { by: 0, category: 'mathematics', title: 'Mathematics of Everyday Life', summary: 'Percentages, interest, odds and estimates: the maths behind shopping, loans and the news, explained with stories.', learn: ['Percentages that lie', 'Interest, loans and odds', 'Back-of-the-envelope estimates'], level: 'all', city: null, priceCents: 0, currency: 'usd', installments: null, refundPolicy: 'flexible', timing: 'soon', weeks: 4, capacity: 20, fill: 0.5, hour: 12, minutes: 60, timeZone: NY },
  { by: 0, category: 'coding', title: 'Build Your First Website', summary: 'A hands-on Saturday workshop series in New York: HTML, CSS and publishing a personal page by the last class.', learn: ['How a web page is built', 'Styling with CSS', 'Publishing your own page online'], level: 'beginner', city: 'New York', address: '120 Broadway', priceCents: 6000, currency: 'usd', installments: null, refundPolicy: 'flexible', timing: 'later', weeks: 3, capacity: 8, fill: 0.3, hour: 10, minutes: 120, timeZone: NY },
  { by: 0, category: 'coding', title: 'SQL for Analysts', summary: 'Answer real business questions from a real database: joins, grouping and window functions, one case a week.', learn: ['Joins without fear', 'Grouping and window functions', 'Writing queries others can read'], level: 'intermediate', city: null, priceCents: 18000, currency: 'usd', installments: 3, refundPolicy: 'moderate', timing: 'past', weeks: 5, capacity: 10, fill: 0.8, hour: 19, minutes: 90, timeZone: NY },
  { by: 0, category: 'coding', title: 'Git and GitHub in One Weekend', summary: 'Commits, branches and pull requests in two practical mornings, for people who keep a folder called final-final-v2.', learn: ['Commits and history', 'Branches and merges', 'Pull requests and reviews'], level: 'beginner', city: null, priceCents: 4500, currency: 'usd', installments: null, refundPolicy: 'flexible', timing: 'running', weeks: 2, capacity: 6, fill: 1, hour: 9, minutes: 180, timeZone: NY },
  // Amara: languages and writing
  { by: 1, category: 'languages', title: 'Conversational French: First Steps', summary: 'Order, ask, chat: speak French from the first class in a small, friendly group.', learn: ['Greetings and small talk', 'Ordering and asking the way', 'Talking about your day'], level: 'beginner', city: null, priceCents: 9000, currency: 'gbp', installments: 2, refundPolicy: 'flexible', timing: 'running', weeks: 8, capacity: 8, fill: 1, hour: 18, minutes: 60, timeZone: LDN },
  { by: 1, category: 'languages', title: 'Spanish for Travellers', summary: 'The Spanish you need for a trip, practised in role plays at a café in Shoreditch.', learn: ['Travel phrases that work', 'Numbers, times and prices', 'Understanding fast replies'], level: 'beginner', city: 'London', address: '14 Rivington Street', priceCents: 7500, currency: 'gbp', installments: null, refundPolicy: 'moderate', timing: 'soon', weeks: 4, capacity: 10, fill: 0.6, hour: 19, minutes: 90, timeZone: LDN },
  { by: 1, category: 'languages', title: 'French Grammar Clinic', summary: 'Subjunctive, past tenses and pronouns: bring your questions, leave with clear rules and examples.', learn: ['Past tenses side by side', 'The subjunctive, demystified', 'Pronouns in the right order'], level: 'intermediate', city: null, priceCents: 0, currency: 'gbp', installments: null, refundPolicy: 'flexible', timing: 'past', weeks: 4, capacity: 25, fill: 0.6, hour: 12, minutes: 45, timeZone: LDN },
  { by: 1, category: 'writing', title: 'Writing Short Stories', summary: 'Six weeks, six short stories: prompts, feedback in pairs, and a final reading.', learn: ['Openings that pull readers in', 'Dialogue and pacing', 'Giving and taking feedback'], level: 'all', city: 'London', address: '38 Exmouth Market', priceCents: 11000, currency: 'gbp', installments: 3, refundPolicy: 'moderate', timing: 'past', weeks: 6, capacity: 12, fill: 0.9, hour: 20, minutes: 90, timeZone: LDN },
  { by: 1, category: 'languages', title: 'Business English Emails', summary: 'Clear, polite and short: write the emails that get answers, with templates you keep.', learn: ['Tone and structure', 'Requests and follow-ups', 'Saying no politely'], level: 'intermediate', city: null, priceCents: 5000, currency: 'gbp', installments: null, refundPolicy: 'strict', timing: 'later', weeks: 3, capacity: 15, fill: 0.2, hour: 8, minutes: 60, timeZone: LDN },
  // Kenji: music and arts
  { by: 2, category: 'music', title: 'Guitar from Zero', summary: 'Your first chords, strumming patterns and three songs, in a small group in Kreuzberg.', learn: ['Open chords and changes', 'Strumming in time', 'Three songs from start to end'], level: 'beginner', city: 'Berlin', address: 'Oranienstraße 25', priceCents: 14000, currency: 'eur', installments: 4, refundPolicy: 'moderate', timing: 'running', weeks: 8, capacity: 6, fill: 1, hour: 18, minutes: 90, timeZone: BER },
  { by: 2, category: 'music', title: 'Piano for Adults', summary: 'Read simple scores and play with both hands: practice plans that fit a busy week.', learn: ['Reading notes and rhythm', 'Both hands together', 'Practising in 15 minutes a day'], level: 'beginner', city: null, priceCents: 16000, currency: 'eur', installments: 4, refundPolicy: 'moderate', timing: 'soon', weeks: 8, capacity: 8, fill: 0.5, hour: 19, minutes: 60, timeZone: BER },
  { by: 2, category: 'music', title: 'Music Theory Without Tears', summary: 'Scales, chords and why songs work, with your ears first and the page second.', learn: ['Scales and keys', 'Chords and progressions', 'Hearing what you read'], level: 'all', city: null, priceCents: 0, currency: 'eur', installments: null, refundPolicy: 'flexible', timing: 'past', weeks: 4, capacity: 30, fill: 0.5, hour: 17, minutes: 60, timeZone: BER },
  { by: 2, category: 'arts', title: 'Ink Drawing Evenings', summary: 'Pen, brush and ink: line, texture and light, drawn from objects on the table.', learn: ['Line weight and hatching', 'Texture and shadow', 'Drawing from observation'], level: 'all', city: 'Berlin', address: 'Weserstraße 58', priceCents: 6500, currency: 'eur', installments: null, refundPolicy: 'flexible', timing: 'later', weeks: 4, capacity: 10, fill: 0.2, hour: 19, minutes: 120, timeZone: BER },
  { by: 2, category: 'music', title: 'Songwriting Circle', summary: 'Write a song a fortnight with others: lyrics, melody and honest, kind feedback.', learn: ['Finding a hook', 'Lyrics that sound natural', 'Structure: verse, chorus, bridge'], level: 'intermediate', city: null, priceCents: 8000, currency: 'eur', installments: 2, refundPolicy: 'moderate', timing: 'past', weeks: 6, capacity: 8, fill: 0.8, hour: 20, minutes: 90, timeZone: BER },
  // Lucía: cooking
  { by: 3, category: 'cooking', title: 'Paella and Tapas at Home', summary: 'Cook a proper paella and five tapas in my Barcelona kitchen, then eat them together.', learn: ['Sofrito and rice that sings', 'Five classic tapas', 'Timing a dinner for friends'], level: 'all', city: 'Barcelona', address: 'Carrer de Verdi 12', priceCents: 9500, currency: 'eur', installments: null, refundPolicy: 'strict', timing: 'soon', weeks: 3, capacity: 8, fill: 1, hour: 18, minutes: 180, timeZone: BCN },
  { by: 3, category: 'cooking', title: 'Sourdough Bread Basics', summary: 'From starter to crusty loaf: feed, shape and bake bread you are proud of.', learn: ['Keeping a starter alive', 'Shaping and scoring', 'Baking in a home oven'], level: 'beginner', city: null, priceCents: 6000, currency: 'eur', installments: null, refundPolicy: 'flexible', timing: 'past', weeks: 4, capacity: 15, fill: 0.9, hour: 10, minutes: 120, timeZone: BCN },
  { by: 3, category: 'cooking', title: 'Weeknight Vegetarian', summary: 'Ten fast, filling vegetarian dinners and the pantry that makes them possible.', learn: ['A pantry that saves time', 'Ten dinners in 30 minutes', 'Cooking once, eating twice'], level: 'beginner', city: null, priceCents: 0, currency: 'eur', installments: null, refundPolicy: 'flexible', timing: 'running', weeks: 5, capacity: 40, fill: 0.6, hour: 19, minutes: 60, timeZone: BCN },
  { by: 3, category: 'cooking', title: 'Knife Skills Workshop', summary: 'Hold, cut and care for a chef’s knife: faster, safer prep in one morning a week.', learn: ['Grip and stance', 'The classic cuts', 'Sharpening and care'], level: 'all', city: 'Barcelona', address: 'Carrer de Verdi 12', priceCents: 5500, currency: 'eur', installments: null, refundPolicy: 'moderate', timing: 'later', weeks: 2, capacity: 6, fill: 0.3, hour: 10, minutes: 150, timeZone: BCN },
  { by: 3, category: 'cooking', title: 'Pastry Foundations', summary: 'Shortcrust, choux and puff: the three doughs behind most of the bakery window.', learn: ['Shortcrust and tarts', 'Choux, éclairs and gougères', 'Rough puff at home'], level: 'intermediate', city: null, priceCents: 15000, currency: 'eur', installments: 3, refundPolicy: 'moderate', timing: 'later', weeks: 6, capacity: 10, fill: 0.1, hour: 17, minutes: 120, timeZone: BCN },
  // Priya: wellbeing and sports
  { by: 4, category: 'wellbeing', title: 'Yoga for Stiff Backs', summary: 'Gentle, practical yoga for desk workers: mobility, strength and breathing in 45 minutes.', learn: ['Mobility for spine and hips', 'Strength for good posture', 'Breathing to unwind'], level: 'all', city: 'Manchester', address: '3 Hilton Street', priceCents: 6000, currency: 'gbp', installments: null, refundPolicy: 'flexible', timing: 'running', weeks: 6, capacity: 12, fill: 1, hour: 7, minutes: 45, timeZone: LDN },
  { by: 4, category: 'wellbeing', title: 'Mindfulness in Eight Weeks', summary: 'A calm, evidence-based course: short practices, weekly themes and a group to share with.', learn: ['Attention and the breath', 'Working with stress', 'Habits that last'], level: 'all', city: null, priceCents: 12000, currency: 'gbp', installments: 4, refundPolicy: 'moderate', timing: 'past', weeks: 8, capacity: 16, fill: 0.75, hour: 20, minutes: 60, timeZone: LDN },
  { by: 4, category: 'sports', title: 'Couch to 5K, Together', summary: 'Run 5 kilometres in nine weeks with a group that waits for you, in Heaton Park.', learn: ['Run-walk intervals', 'Pacing and breathing', 'Staying injury-free'], level: 'beginner', city: 'Manchester', address: 'Heaton Park', priceCents: 0, currency: 'gbp', installments: null, refundPolicy: 'flexible', timing: 'soon', weeks: 9, capacity: 25, fill: 0.5, hour: 8, minutes: 45, timeZone: LDN },
  { by: 4, category: 'wellbeing', title: 'Sleep Better', summary: 'What the research says about sleep, and a four-week plan you adapt to your life.', learn: ['How sleep works', 'Evening routines', 'A plan that fits you'], level: 'all', city: null, priceCents: 4000, currency: 'gbp', installments: null, refundPolicy: 'flexible', timing: 'later', weeks: 4, capacity: 30, fill: 0.15, hour: 21, minutes: 45, timeZone: LDN },
  // Oskar: science and mathematics
  { by: 5, category: 'science', title: 'Astronomy for Stargazers', summary: 'Find planets, read star charts and understand what you see, with two night walks in Stockholm.', learn: ['Reading a star chart', 'Planets, moons and seasons', 'Choosing binoculars'], level: 'all', city: 'Stockholm', address: 'Observatoriekullen', priceCents: 8000, currency: 'eur', installments: 2, refundPolicy: 'moderate', timing: 'soon', weeks: 4, capacity: 14, fill: 0.7, hour: 20, minutes: 90, timeZone: STO },
  { by: 5, category: 'science', title: 'Physics in the Kitchen', summary: 'Heat, pressure and waves explained with pans, kettles and a microwave.', learn: ['Heat and how it moves', 'Pressure and boiling', 'Waves you can see'], level: 'beginner', city: null, priceCents: 0, currency: 'eur', installments: null, refundPolicy: 'flexible', timing: 'past', weeks: 4, capacity: 40, fill: 0.55, hour: 18, minutes: 60, timeZone: STO },
  { by: 5, category: 'mathematics', title: 'Statistics Without Formulas', summary: 'Averages, spread, samples and significance, through pictures and simulations.', learn: ['Averages and spread', 'Samples and surveys', 'What significance means'], level: 'all', city: null, priceCents: 9000, currency: 'eur', installments: 3, refundPolicy: 'moderate', timing: 'running', weeks: 6, capacity: 20, fill: 0.6, hour: 18, minutes: 75, timeZone: STO },
  { by: 5, category: 'mathematics', title: 'Calculus Refresher', summary: 'Limits, derivatives and integrals again, for students and engineers who need them back.', learn: ['Limits and continuity', 'Derivatives in practice', 'Integrals and areas'], level: 'intermediate', city: null, priceCents: 13000, currency: 'eur', installments: 3, refundPolicy: 'strict', timing: 'later', weeks: 6, capacity: 12, fill: 0.25, hour: 19, minutes: 90, timeZone: STO },
  { by: 5, category: 'science', title: 'Climate Science, Plainly', summary: 'How the climate works, how we know it is changing, and how to read a climate headline.', learn: ['The greenhouse effect', 'Evidence and models', 'Reading the headlines'], level: 'all', city: null, priceCents: 3500, currency: 'eur', installments: null, refundPolicy: 'flexible', timing: 'past', weeks: 3, capacity: 50, fill: 0.4, hour: 17, minutes: 60, timeZone: STO },
  // Fatima: business and writing
  { by: 6, category: 'business', title: 'Start a Small Business', summary: 'From idea to first customers in six weeks: offer, price, and a plan on one page.', learn: ['Testing an idea cheaply', 'Pricing with confidence', 'A one-page plan'], level: 'beginner', city: 'Paris', address: '8 rue Saint-Marc', priceCents: 24000, currency: 'eur', installments: 6, refundPolicy: 'moderate', timing: 'soon', weeks: 6, capacity: 12, fill: 0.8, hour: 19, minutes: 120, timeZone: PAR },
  { by: 6, category: 'business', title: 'Bookkeeping for Freelancers', summary: 'Invoices, expenses and taxes kept tidy in an hour a week, with a spreadsheet you keep.', learn: ['Invoices and receipts', 'Expenses and categories', 'Setting money aside for tax'], level: 'beginner', city: null, priceCents: 7000, currency: 'eur', installments: null, refundPolicy: 'flexible', timing: 'past', weeks: 3, capacity: 20, fill: 0.85, hour: 12, minutes: 60, timeZone: PAR },
  { by: 6, category: 'business', title: 'Pitching with Confidence', summary: 'Build and deliver a five-minute pitch, filmed and reviewed with care.', learn: ['Structure of a pitch', 'Slides that help', 'Answering hard questions'], level: 'intermediate', city: null, priceCents: 15000, currency: 'eur', installments: 3, refundPolicy: 'strict', timing: 'running', weeks: 4, capacity: 8, fill: 1, hour: 18, minutes: 90, timeZone: PAR },
  { by: 6, category: 'writing', title: 'Copywriting that Sells', summary: 'Headlines, product pages and emails that people read to the end.', learn: ['Headlines that work', 'Benefits over features', 'Editing for rhythm'], level: 'all', city: null, priceCents: 0, currency: 'eur', installments: null, refundPolicy: 'flexible', timing: 'later', weeks: 4, capacity: 40, fill: 0.1, hour: 13, minutes: 60, timeZone: PAR },
  { by: 6, category: 'business', title: 'Negotiation Essentials', summary: 'Prepare, listen and trade: role plays for salaries, suppliers and clients.', learn: ['Preparing your numbers', 'Listening for interests', 'Trading, not conceding'], level: 'all', city: 'Paris', address: '8 rue Saint-Marc', priceCents: 11000, currency: 'eur', installments: null, refundPolicy: 'moderate', timing: 'past', weeks: 2, capacity: 10, fill: 0.9, hour: 9, minutes: 180, timeZone: PAR },
  // Mateo: arts, other, sports
  { by: 7, category: 'arts', title: 'Street Photography in Lisbon', summary: 'Walk, look and shoot: composition and light on the streets of Alfama, with a weekly photo review.', learn: ['Composition on the move', 'Reading the light', 'Choosing your best frames'], level: 'all', city: 'Lisbon', address: 'Largo do Chafariz de Dentro', priceCents: 8500, currency: 'eur', installments: null, refundPolicy: 'moderate', timing: 'running', weeks: 4, capacity: 8, fill: 0.75, hour: 17, minutes: 150, timeZone: LIS },
  { by: 7, category: 'other', title: 'Chess: Openings and Plans', summary: 'Stop memorising moves: learn the ideas behind the main openings and what to do next.', learn: ['Principles of the opening', 'Pawn structures and plans', 'Reviewing your own games'], level: 'intermediate', city: null, priceCents: 6000, currency: 'eur', installments: 2, refundPolicy: 'flexible', timing: 'past', weeks: 6, capacity: 16, fill: 0.7, hour: 20, minutes: 75, timeZone: LIS },
  { by: 7, category: 'other', title: 'Chess for Absolute Beginners', summary: 'How the pieces move, how to win, and your first real games against people your level.', learn: ['How every piece moves', 'Checkmate patterns', 'Your first full games'], level: 'beginner', city: null, priceCents: 0, currency: 'eur', installments: null, refundPolicy: 'flexible', timing: 'soon', weeks: 4, capacity: 20, fill: 1, hour: 18, minutes: 60, timeZone: LIS },
  { by: 7, category: 'arts', title: 'Phone Photography Masterclass', summary: 'Great pictures with the phone in your pocket: light, framing and editing in the app.', learn: ['Light and exposure', 'Framing and perspective', 'Editing without overdoing it'], level: 'beginner', city: null, priceCents: 4000, currency: 'eur', installments: null, refundPolicy: 'flexible', timing: 'later', weeks: 3, capacity: 30, fill: 0.2, hour: 19, minutes: 60, timeZone: LIS },
  { by: 7, category: 'sports', title: 'Surf Fundamentals in Costa da Caparica', summary: 'Safety, paddling and your first waves with a small group and certified instructors.', learn: ['Ocean safety', 'Paddling and pop-up', 'Catching green waves'], level: 'beginner', city: 'Lisbon', address: 'Praia do CDS, Costa da Caparica', priceCents: 18000, currency: 'eur', installments: 3, refundPolicy: 'strict', timing: 'later', weeks: 4, capacity: 6, fill: 0.5, hour: 9, minutes: 150, timeZone: LIS },
  { by: 7, category: 'writing', title: 'Travel Writing Workshop', summary: 'Turn a trip into a story editors want: observation, structure and pitching.', learn: ['Noticing the telling detail', 'Structure of a travel piece', 'Pitching to editors'], level: 'all', city: null, priceCents: 7000, currency: 'eur', installments: null, refundPolicy: 'moderate', timing: 'soon', weeks: 4, capacity: 12, fill: 0.35, hour: 19, minutes: 90, timeZone: LIS },
];

/** Review texts by rating: short, plain, in a learner's voice. */
export const REVIEW_TEXTS: Record<number, string[]> = {
  5: [
    'Exactly what I needed. Clear, patient and fun; I looked forward to every class.',
    'The best course I have taken in years. Small group, lots of practice, great feedback.',
    'Brilliant teacher. I finally understand what I was doing wrong for so long.',
    'Well organised, friendly and practical. I already signed up for the next one.',
  ],
  4: [
    'Very good overall. A couple of classes felt rushed, but the material was excellent.',
    'I learned a lot and the group was lovely. Would have liked more time for questions.',
    'Solid course with useful handouts. The last week was the best.',
  ],
  3: ['Good content, but the pace was a bit fast for a true beginner.', 'Fine, though some of it I already knew from the free videos.'],
  2: ['The classes often started late and the sound was poor online.'],
  1: ['Not for me: much more theory than the description suggested.'],
};
