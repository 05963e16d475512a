/** A UUID, as every resource id is: anything else in a URL is a page that cannot exist. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (id: string | undefined): id is string => !!id && UUID.test(id);
