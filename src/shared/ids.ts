/** A UUID, as every resource id is (any case): anything else cannot name a row. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (id: string | undefined | null): id is string => !!id && UUID.test(id);
