/** @postlight/parser ships no type declarations; bench/peers.ts types what it uses. */
declare module '@postlight/parser';
