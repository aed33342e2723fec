import type { Site, User } from './records';

/**
 * The form an email is stored and looked up in: trimmed, lower case. (The local part is case
 * sensitive by RFC 5321, but no mail provider treats it so, and a user who types "Ann@" must still
 * sign in as "ann@".)
 *
 * @example
 * normalizeEmail(' Ann@Shop.Example ') // 'ann@shop.example'
 */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** Something that looks like an email address: one `@`, no spaces or controls, at most 254 characters. */
export const EMAIL = /^[^\s@\p{Cc}]{1,64}@[^\s@\p{Cc}]{1,189}$/u;

/**
 * Whether a user may see a site: every site without `site_keys`, else the ones named.
 *
 * @example
 * userMaySee({ site_keys: ['a1'] }, 'b2') // false
 */
export const userMaySee = (user: Pick<User, 'site_keys'>, siteKey: string) => !user.site_keys || user.site_keys.includes(siteKey);

/**
 * The sites a user may see, of `sites`.
 *
 * @example
 * visibleSites({ site_keys: ['a1'] }, sites) // only a1
 */
export const visibleSites = (user: Pick<User, 'site_keys'>, sites: Site[]) => sites.filter((site) => userMaySee(user, site.site_key));
