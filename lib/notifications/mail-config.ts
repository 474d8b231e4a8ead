import { config } from "@/lib/env";

/** Whether notifications go by mail: SMTP_URL is set (lib/env.ts checks it at start). */
export const mailEnabled = () => config().mail !== null;
