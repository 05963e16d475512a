import type { ClubCategoryId } from '../../shared/clubs.js';

/** A demo club of a city (or online: city null) with its weekly or fortnightly events. */
export interface DemoCityClub {
  name: string;
  organiser: string;
  category: ClubCategoryId;
  city: string | null;
  timeZone: string;
  description: string;
  rules: string;
  /** How many members join (besides the organiser), as far as the demo has people. */
  members: number;
  event: {
    title: string;
    description: string;
    inDays: number;
    time: string;
    ends: string;
    everyWeeks: number;
    address: string | null;
    capacity: number | null;
  };
}

const LDN = 'Europe/London';
const CET = 'Europe/Berlin';

/** Clubs in every city of the demo catalogue, so /club/search looks like a place people meet. */
export const CITY_CLUBS: DemoCityClub[] = [
  {
    name: 'London Language Exchange',
    organiser: 'amara@agora.local',
    category: 'languages',
    city: 'London',
    timeZone: LDN,
    description: 'Half an hour in your language, half an hour in mine. **French, Spanish, German and more**; all levels welcome.',
    rules: 'Switch languages on the half hour. Patience before perfection.',
    members: 8,
    event: {
      title: 'Language exchange night',
      description: 'Tables by language; name stickers at the door.',
      inDays: 2,
      time: '18:30',
      ends: '20:30',
      everyWeeks: 1,
      address: 'The Book Bar, 8 Exmouth Market, London',
      capacity: 30,
    },
  },
  {
    name: 'Berlin Tech Meetup: Python & Data',
    organiser: 'kenji@agora.local',
    category: 'coding',
    city: 'Berlin',
    timeZone: CET,
    description: 'Two short talks, then pizza and questions. Beginners welcome: every talk starts from the basics.',
    rules: 'Be kind in questions. Talks are recorded only with the speaker’s consent.',
    members: 8,
    event: {
      title: 'Two talks: pandas tricks, and testing notebooks',
      description: 'Doors at 18:30, talks at 19:00.',
      inDays: 4,
      time: '18:30',
      ends: '21:00',
      everyWeeks: 2,
      address: 'Factory Görlitzer Park, Lohmühlenstraße 65, Berlin',
      capacity: 60,
    },
  },
  {
    name: 'Barcelona Sketchers',
    organiser: 'lucia@agora.local',
    category: 'arts',
    city: 'Barcelona',
    timeZone: CET,
    description: 'We draw the city together on Saturday mornings: a new square every week, coffee after.',
    rules: 'Any material, any level. Share a page at the end if you like.',
    members: 6,
    event: {
      title: 'Sketch walk',
      description: 'Meet at the fountain; we draw for two hours.',
      inDays: 3,
      time: '10:00',
      ends: '12:00',
      everyWeeks: 1,
      address: 'Plaça Reial, Barcelona',
      capacity: null,
    },
  },
  {
    name: 'Manchester Board Games Night',
    organiser: 'priya@agora.local',
    category: 'social',
    city: 'Manchester',
    timeZone: LDN,
    description: 'Strategy, party and co-op games; a library of 200 boxes. Come alone, leave with a team.',
    rules: 'Teach a game, learn a game.',
    members: 7,
    event: {
      title: 'Games night',
      description: 'Tables from 18:00; a new game taught at 19:00.',
      inDays: 1,
      time: '18:00',
      ends: '22:00',
      everyWeeks: 1,
      address: 'Fanboy Three, 17 Newton Street, Manchester',
      capacity: 24,
    },
  },
  {
    name: 'Stockholm Photo Walks',
    organiser: 'oskar@agora.local',
    category: 'arts',
    city: 'Stockholm',
    timeZone: CET,
    description: 'Light, water and old town: a walk with cameras (phones welcome) and a short critique over fika.',
    rules: 'Ask before photographing people.',
    members: 6,
    event: {
      title: 'Golden hour in Gamla stan',
      description: 'Meet by the obelisk.',
      inDays: 5,
      time: '17:00',
      ends: '19:00',
      everyWeeks: 2,
      address: 'Stortorget, Stockholm',
      capacity: 15,
    },
  },
  {
    name: 'Paris Cooking Circle',
    organiser: 'fatima@agora.local',
    category: 'cooking',
    city: 'Paris',
    timeZone: CET,
    description: 'We cook one menu together and eat it: North African, French and whatever a member brings from home.',
    rules: 'Tell us about allergies when you answer "going".',
    members: 7,
    event: {
      title: 'Cook and eat: couscous night',
      description: 'Ingredients shared; bring a container for leftovers.',
      inDays: 6,
      time: '19:00',
      ends: '22:00',
      everyWeeks: 1,
      address: 'Atelier des Chefs, 10 rue de Penthièvre, Paris',
      capacity: 12,
    },
  },
  {
    name: 'Lisbon Surf & Yoga',
    organiser: 'mateo@agora.local',
    category: 'sport',
    city: 'Lisbon',
    timeZone: 'Europe/Lisbon',
    description: 'Yoga on the beach, then a surf session for every level. Boards can be hired on site.',
    rules: 'The sea decides: we cancel by 7:00 if it is unsafe.',
    members: 5,
    event: {
      title: 'Sunrise yoga, then surf',
      description: 'Meet at the lifeguard tower.',
      inDays: 2,
      time: '07:30',
      ends: '10:00',
      everyWeeks: 1,
      address: 'Praia de Carcavelos, Lisbon',
      capacity: 20,
    },
  },
  {
    name: 'New York Study Hall',
    organiser: 'arjun@agora.local',
    category: 'wellbeing',
    city: 'New York',
    timeZone: 'America/New_York',
    description: 'Silent focused work in 50-minute blocks with short breaks: bring your course homework or your side project.',
    rules: 'Phones on silent. Chat only in the breaks.',
    members: 6,
    event: {
      title: 'Study hall',
      description: 'Four blocks of 50 minutes.',
      inDays: 1,
      time: '10:00',
      ends: '14:00',
      everyWeeks: 1,
      address: 'New York Public Library, 476 5th Ave, New York',
      capacity: 40,
    },
  },
  {
    name: 'Dublin Running Club',
    organiser: 'liam@agora.local',
    category: 'sport',
    city: 'Dublin',
    timeZone: 'Europe/Dublin',
    description: 'A 5 km loop around the park every week, two pace groups, coffee after.',
    rules: 'Nobody runs alone: the back marker waits.',
    members: 5,
    event: {
      title: 'Phoenix Park 5 km',
      description: 'Meet at the visitor centre.',
      inDays: 3,
      time: '09:00',
      ends: '10:00',
      everyWeeks: 1,
      address: 'Phoenix Park Visitor Centre, Dublin',
      capacity: null,
    },
  },
  {
    name: 'Online Writers’ Room',
    organiser: 'maya@agora.local',
    category: 'writing',
    city: null,
    timeZone: LDN,
    description: 'Write together on camera for an hour, then share a paragraph. Fiction, essays, theses: all welcome.',
    rules: 'Feedback is kind and specific.',
    members: 10,
    event: {
      title: 'Write-in and share',
      description: 'The link opens ten minutes before.',
      inDays: 2,
      time: '20:00',
      ends: '21:30',
      everyWeeks: 1,
      address: null,
      capacity: null,
    },
  },
  {
    name: 'Maths Puzzle Club',
    organiser: 'grace@agora.local',
    category: 'mathematics',
    city: null,
    timeZone: 'America/New_York',
    description: 'One puzzle a fortnight, solved together online: logic, probability and a little number theory.',
    rules: 'No spoilers in the chat before the reveal.',
    members: 9,
    event: {
      title: 'Puzzle night: the Monty Hall problem and friends',
      description: 'We vote, we argue, we simulate.',
      inDays: 8,
      time: '19:00',
      ends: '20:00',
      everyWeeks: 2,
      address: null,
      capacity: null,
    },
  },
];
