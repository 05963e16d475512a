/** Display helpers of the payments screens. Amounts are in cents. */

/** "$100.00" (zero is "$0.00", unlike a course price where zero reads "Free"). */
export function money(cents: number, currency: string): string {
  return new Intl.NumberFormat('en', { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100);
}

/** "3 × $33.34 monthly" for installments. */
export const installmentsLabel = (n: number, eachCents: number, currency: string) => `${n} × ${money(eachCents, currency)} monthly`;

/** "Installment 2 of 3" for a payment of an installment plan; null for a one-off payment. */
export const sequenceLabel = (sequence: number, installments: number | null) => (installments ? `Installment ${sequence} of ${installments}` : null);

const dateTime = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });
const dateOnly = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });

/** "3 Mar 2026, 18:04" in the viewer's zone. */
export const formatInstant = (iso: string) => dateTime.format(new Date(iso));
export const formatDay = (iso: string) => dateOnly.format(new Date(iso));

/** Requirement codes from the provider ("individual.dob.day") as words ("Individual dob day"). */
export function requirementLabel(code: string): string {
  const words = code.replace(/[._]/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
