/** The admin dashboard's address: `/admin`, or `/admin/<section>`. */
export const ADMIN_PATH = /^\/admin(?:\/([a-z-]+))?$/;
