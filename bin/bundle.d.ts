// Types of bin/bundle.js for the TypeScript that imports it (the bundle-level test).
export declare const ENTRY: string;
export declare const BUNDLE: string;
export declare function bundleIsFresh(): boolean;
export declare function buildBundle(): Promise<void>;
