/** A node of PostgreSQL's `EXPLAIN (ANALYZE, FORMAT JSON)` plan, as the plan tests read it. */
export interface PlanNode {
  readonly 'Node Type': string;
  readonly 'Relation Name'?: string;
  readonly 'Index Name'?: string;
  readonly 'Actual Rows': number;
  readonly 'Actual Loops': number;
  readonly Plans?: readonly PlanNode[];
}

/** Every node of a plan with the rows it produced over all its loops. */
export function planNodes(plan: PlanNode): { readonly what: string; readonly rows: number }[] {
  const what = [plan['Node Type'], plan['Index Name'] ?? plan['Relation Name']].filter(Boolean).join(' ');
  return [{ what, rows: plan['Actual Rows'] * plan['Actual Loops'] }, ...(plan.Plans ?? []).flatMap(planNodes)];
}
