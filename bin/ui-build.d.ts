// Types of bin/ui-build.js for the TypeScript that imports it (the test runner, the browser tests).
export declare const UI_DIR: string;
export declare const UI_DIST: string;
export declare function uiBuildIsFresh(): boolean;
export declare function buildUi(): Promise<void>;
