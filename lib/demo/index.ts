/** The demo news site: generator, server and truth helpers. */
export * from './site-generator';
export * from './site-server';
export * from './truth';
