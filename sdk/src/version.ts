/** This package's name and version, sent in its registration and User-Agent (kept equal to package.json by a test). */
export const SDK_PACKAGE = "@quartermaster/tool-host";
export const SDK_VERSION = "0.6.0";
