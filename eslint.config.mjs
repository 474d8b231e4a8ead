import next from "eslint-config-next";

const config = [
  { ignores: [".next/**", ".next-*/**", "node_modules/**", ".data/**", "test-results/**", "playwright-report/**", "next-env.d.ts"] },
  ...next,
];

export default config;
