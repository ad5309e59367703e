/** Money in the currency's minor unit, as Stripe gives it, for people. */
export const formatMoney = (amount: number, currency: string) =>
  new Intl.NumberFormat(undefined, { style: 'currency', currency: currency.toUpperCase() }).format(amount / 100);

export const formatTime = (iso: string) => new Date(iso).toLocaleString();
