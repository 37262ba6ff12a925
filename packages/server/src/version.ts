/** The version of the platform, shown in the API reference and the client config. */
export const VERSION = '0.1.0';
