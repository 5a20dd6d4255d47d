/**
 * html-encoding-sniffer 7 ships no type declarations, and @types/html-encoding-sniffer (3.x) lacks
 * the options of 7 (`xml`, `maxPrescanBytes`): the API as its README gives it.
 */
declare module 'html-encoding-sniffer' {
  interface SniffOptions {
    /** XML sniffing (BOM, transport label, UTF-16 signatures, the XML declaration) instead of HTML's. */
    readonly xml?: boolean;
    /** The Content-Type's charset: it overrides everything but a BOM. */
    readonly transportLayerEncodingLabel?: string;
    /** When nothing else names one: windows-1252 for HTML, UTF-8 for XML. */
    readonly defaultEncoding?: string;
    /** How many bytes the HTML <meta> prescan reads (1024); not with `xml`. */
    readonly maxPrescanBytes?: number;
  }
  /** The encoding's canonical WHATWG name (`UTF-8`, `Shift_JIS`, `windows-1251`...), never a label. */
  function htmlEncodingSniffer(bytes: Uint8Array, options?: SniffOptions): string;
  export = htmlEncodingSniffer;
}
