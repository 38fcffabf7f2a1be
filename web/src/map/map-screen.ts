// The live map (issue 31, part 1). Placeholder until the map lands.
import { h } from "../dom.ts";
import type { Screen } from "../context.ts";

export const mapScreen: Screen = (root) => {
  root.append(h("h1", {}, "Map"));
  return () => root.replaceChildren();
};
