import { parseMermaid, type MermaidGraph } from "beautiful-mermaid";
import { decodeXML } from "entities";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkDiagrams, DIAGRAM_LIMITS, diagramRefusal, diagramSize, mermaidBlocks } from "./diagrams";

/**
 * The diagram limits count what the renderer lays out: links after `&` groups are expanded, and
 * nodes (subgraphs included). Held as a table and, for flowcharts and state diagrams, equal to
 * beautiful-mermaid's own parse of generated sources.
 */

const fan = (k: number) =>
  `flowchart LR\n${Array.from({ length: k }, (_, i) => `a${i}`).join(" & ")} --> ${Array.from({ length: k }, (_, i) => `b${i}`).join(" & ")}`;

describe("the size of a diagram, as drawn", () => {
  it.each([
    ["a & b --> c & d is four links", "flowchart LR\n  a & b --> c & d", { links: 4, arrows: 1, nodes: 4 }],
    ["a chain is a link per arrow", "graph TD\n  a --> b --> c", { links: 2, arrows: 2, nodes: 3 }],
    ["a chain of groups multiplies each pair", "flowchart LR\n  a & b --> c & d & e --> f", { links: 9, arrows: 2, nodes: 6 }],
    ["a repeated node is linked again", "flowchart LR\n  a & a --> b", { links: 2, arrows: 1, nodes: 2 }],
    ["labels and shapes", 'flowchart LR\n  s[Start] -->|go| t{Test?} -- yes --> u(("done & dusted --> x"))', { links: 2, arrows: 2, nodes: 3 }],
    ["a ; does not end a statement for the renderer", "flowchart LR\n  a --> b; c --> d", { links: 1, arrows: 1, nodes: 2 }],
    ["an entity & is an &", "flowchart LR\n  a &amp; b &#38; c --> d", { links: 3, arrows: 1, nodes: 4 }],
    [
      "subgraphs are nodes too; styles and comments are not",
      "flowchart TB\n  %% a --> b\n  subgraph one\n    x --> y\n  end\n  style x fill:#fff\n  classDef k fill:#000",
      { links: 1, arrows: 1, nodes: 3 },
    ],
    ["lone nodes", "flowchart LR\n  n1\n  n2\n  n3", { links: 0, arrows: 0, nodes: 3 }],
    [
      "state transitions, each [*] a pseudostate of its own",
      "stateDiagram-v2\n  [*] --> a\n  a --> b : go\n  b --> [*]\n  [*] --> b",
      { links: 4, arrows: 4, nodes: 5 },
    ],
    ["a composite state", "stateDiagram-v2\n  state Busy {\n    x --> y\n  }\n  a --> Busy", { links: 2, arrows: 2, nodes: 4 }],
    [
      "sequence messages between participants",
      "sequenceDiagram\n  participant A\n  A->>B: hi & bye\n  B-->>C: ok\n  Note over A,D: n",
      { links: 2, arrows: 2, nodes: 4 },
    ],
    [
      "class relationships",
      "classDiagram\n  class Animal {\n    +eat() & drink()\n  }\n  Animal <|-- Dog\n  Dog --> Bone : chews\n  Cat : +meow()",
      { links: 2, arrows: 2, nodes: 4 },
    ],
    [
      "entity relationships",
      "erDiagram\n  CUSTOMER ||--o{ ORDER : places\n  ORDER ||--|{ LINE : has\n  PRODUCT {\n    string id PK\n  }",
      { links: 2, arrows: 2, nodes: 4 },
    ],
    ["a chart has no graph", "xychart-beta\n  x-axis [a, b]\n  bar [1, 2]", { links: 0, arrows: 0, nodes: 0 }],
  ])("%s", (_, source, expected) => {
    expect(diagramSize(source)).toMatchObject(expected);
  });

  it("the fan-out of the finding, 352 characters, is 900 links and 60 nodes, and is refused for it", () => {
    const source = fan(30);
    expect(source.length).toBe(352);
    expect(diagramSize(source)).toMatchObject({ kind: "flowchart", links: 900, arrows: 1, nodes: 60 });
    expect(diagramRefusal(source)).toBe(
      "it draws 900 links, more than the 120 a page draws (an arrow between & groups draws a link from every node of one to every node of the other)",
    );
  });

  it("refuses at each limit and not below it", () => {
    const lone = (n: number) => `flowchart LR\n${Array.from({ length: n }, (_, i) => `  n${i}`).join("\n")}`;
    expect(diagramRefusal(lone(DIAGRAM_LIMITS.nodes))).toBeNull();
    expect(diagramRefusal(lone(DIAGRAM_LIMITS.nodes + 1))).toBe(
      `it draws ${DIAGRAM_LIMITS.nodes + 1} nodes, more than the ${DIAGRAM_LIMITS.nodes} a page draws`,
    );
    const edges = (n: number) => `flowchart LR\n${Array.from({ length: n }, (_, i) => `  n${i % 40} --> n${(i * 7 + 3) % 40}`).join("\n")}`;
    expect(diagramRefusal(edges(DIAGRAM_LIMITS.links))).toBeNull();
    expect(diagramRefusal(edges(DIAGRAM_LIMITS.links + 1))).toBe(
      `it draws ${DIAGRAM_LIMITS.links + 1} links, more than the ${DIAGRAM_LIMITS.links} a page draws`,
    );
    expect(diagramRefusal(`${fan(10)} & b10`)).toBeNull();
    expect(diagramRefusal(fan(11))).toMatch(/^it draws 121 links, more than the 120/);
    expect(diagramRefusal(`flowchart LR\n${"  A --> B\n".repeat(DIAGRAM_LIMITS.source / 10 + 1)}`)).toBe("the source is longer than 10,000 characters");
  });

  it("counts as the renderer parses: any generated flowchart or state diagram has the links and nodes beautiful-mermaid makes of it", () => {
    const id = fc.constantFrom("a", "b", "c", "d-1", "e_2", "f");
    const node = fc.oneof(
      id,
      id.map((i) => `${i}[box & --> text]`),
      id.map((i) => `${i}(round)`),
      id.map((i) => `${i}{choice}`),
      id.map((i) => `${i}((circle))`),
      id.map((i) => `${i}:::hot`),
    );
    const group = fc.tuple(fc.array(node, { minLength: 1, maxLength: 4 }), fc.constantFrom(" & ", "&", " &amp; ", " &#38; ")).map(([g, and]) => g.join(and));
    const arrow = fc.constantFrom("-->", "---", "-.->", "==>", "===", "-->|label|", "-- text -->", "<-->", " --> ", "~~~", "->");
    const edgeLine = fc
      .tuple(group, fc.array(fc.tuple(arrow, group), { maxLength: 3 }))
      .map(([first, rest]) => `  ${first}${rest.map(([a, g]) => ` ${a} ${g}`).join("")}`);
    const other = fc.constantFrom(
      "  %% a --> b",
      "  style a fill:#f00",
      "  classDef hot fill:#f00",
      "  class a,b hot",
      "  linkStyle 0 stroke:#f00",
      "  a --> b; c --> d",
      "  & a",
      "",
    );
    const block: fc.Arbitrary<string[]> = fc.letrec<{ block: string[] }>((tie) => ({
      block: fc
        .array(
          fc.oneof(
            { weight: 5, arbitrary: edgeLine.map((l) => [l]) },
            { weight: 1, arbitrary: other.map((l) => [l]) },
            { weight: 1, arbitrary: fc.tuple(id, tie("block")).map(([name, inner]) => [`  subgraph ${name}s`, ...inner, "  end"]) },
          ),
          { maxLength: 5, depthIdentifier: "block" },
        )
        .map((parts) => parts.flat()),
    })).block;
    const flowchart = fc.tuple(fc.constantFrom("flowchart LR", "graph TD"), block).map(([h, lines]) => [h, ...lines].join("\n"));
    const state = fc
      .array(
        fc.oneof(
          fc.tuple(fc.constantFrom("[*]", "s1", "s2", "Busy"), fc.constantFrom("[*]", "s2", "s3", "Busy")).map(([a, b]) => `  ${a} --> ${b}`),
          fc.constantFrom("  s1 : waiting", '  state "Long name" as s4', "  state Busy {", "  }", "  direction LR", "  s2 --> s3 : done"),
        ),
        { maxLength: 10 },
      )
      .map((lines) => ["stateDiagram-v2", ...lines].join("\n"));
    const subgraphs = (g: MermaidGraph) => {
      let n = 0;
      const walk = (list: MermaidGraph["subgraphs"]) => list.forEach((s) => (n++, walk(s.children)));
      walk(g.subgraphs);
      return n;
    };
    fc.assert(
      fc.property(fc.oneof(flowchart, state), (source) => {
        const graph = parseMermaid(decodeXML(source));
        const size = diagramSize(source);
        expect({ links: size.links, nodes: size.nodes }, source).toEqual({ links: graph.edges.length, nodes: graph.nodes.size + subgraphs(graph) });
      }),
      { numRuns: 300 },
    );
  });
});

describe("the diagrams of a note", () => {
  const sections = (evidence: string) => ({ decision: "", invariant: "", rejectedShortcut: "", evidence, claimBoundary: "", notes: "" });

  it("finds ```mermaid blocks where the page draws them (in a list, in a quote), with their lines, and not a fence inside code", () => {
    const text =
      "Intro.\n\n```mermaid\nflowchart LR\n  a --> b\n```\n\n- item\n\n  ~~~mermaid\n  graph TD\n    x\n  ~~~\n\n> ```mermaid\n> sequenceDiagram\n> ```\n\n````md\n```mermaid\nnot a block\n```\n````";
    expect(mermaidBlocks(text)).toEqual([
      { source: "flowchart LR\n  a --> b", line: 3 },
      { source: "graph TD\n  x", line: 10 },
      { source: "sequenceDiagram", line: 15 },
    ]);
  });

  it("names the section, the line and the limit of a diagram too large to draw", () => {
    expect(checkDiagrams({ sections: sections(`Measured.\n\n\`\`\`mermaid\n${fan(30)}\n\`\`\`\n\n\`\`\`mermaid\n${fan(3)}\n\`\`\``) })).toEqual([
      {
        field: "sections.evidence",
        line: 3,
        message:
          "Evidence: the Mermaid diagram on line 3 is too large to draw: it draws 900 links, more than the 120 a page draws (an arrow between & groups draws a link from every node of one to every node of the other); split it into smaller diagrams",
      },
    ]);
  });
});
