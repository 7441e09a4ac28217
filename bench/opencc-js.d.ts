// The part of opencc-js (no types of its own) that bench/traditional-chinese.ts uses.
declare module 'opencc-js' {
  export function Converter(options: { from: string; to: string }): (text: string) => string;
}
