/** The success envelope of every JSON endpoint. */
export const ok = <T>(data: T) => ({ status: 'OK' as const, data });

/** A business failure: HTTP 200, `data` a short message, never an object. */
export const failure = (message: string) => ({ status: 'ERROR' as const, data: message });
