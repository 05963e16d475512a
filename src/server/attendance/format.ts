/** "1 hour", "7.5 hours". */
export const formatHours = (h: number) => `${Number.isInteger(h) ? h : h.toFixed(1)} ${h === 1 ? 'hour' : 'hours'}`;
