/** A page-view id: time-ordered, random enough to never collide within a site. */
export const randomId = () => Date.now().toString(36) + Math.random().toString(36).slice(2);
