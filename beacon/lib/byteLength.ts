/**
 * UTF-8 length of a string, as the keepalive quota counts it (a Blob holds a string as UTF-8).
 *
 * @example
 * byteLength('é') // 2
 */
export const byteLength = (text: string) => new Blob([text]).size;
