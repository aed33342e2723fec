/**
 * UTF-8 length of a string, as the keepalive quota counts it.
 *
 * @example
 * byteLength('é') // 2
 */
export const byteLength = (text: string) => new TextEncoder().encode(text).length;
