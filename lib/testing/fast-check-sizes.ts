import fc from "fast-check";

/**
 * Vitest's setup for every test file: a property's `maxLength` is the size it is tested at. By
 * default fast-check takes a stated `maxLength` as a bound only and generates "small" values (about
 * ten elements or characters), so `fc.string({ maxLength: 400 })` never made a string longer than
 * ten, and a window rule over long texts went untested (lib/search/passage.test.ts found it).
 * Arbitraries that state no bound keep the small default.
 */
fc.configureGlobal({ defaultSizeToMaxWhenMaxSpecified: true });
