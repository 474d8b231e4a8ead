import type { BaseChoice } from "@/lib/review/review-page-data";
import { Button } from "@/components/ui/button";
import styles from "./review.module.css";

/**
 * Which version the changes are shown against: a plain GET form (?against=…), so it works before
 * any script runs and the choice stays in the address; a button rather than a change handler, so
 * moving through the options by keyboard does not reload the page.
 */
export function CompareForm({ choices, base }: { choices: BaseChoice[]; base: string }) {
  return (
    <form method="get" className={styles.compare} aria-label="Compare with">
      <label htmlFor="against">Changes since</label>
      <select id="against" name="against" defaultValue={base}>
        {choices.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </select>
      <Button type="submit" size="small">
        Compare
      </Button>
    </form>
  );
}
