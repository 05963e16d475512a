/** A UUID, as every resource id is: anything else in a URL is a page that cannot exist (the one rule, in src/shared/ids.ts). */
export { isUuid } from '@shared/ids';
