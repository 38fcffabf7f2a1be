// Only the spec's operations appear: no automatic CRUD, no Node interface, no allX, no connections.
import { beforeAll, expect, test } from "@jest/globals";
import { buildSchema, type GraphQLObjectType } from "graphql";
import fs from "node:fs";
import path from "node:path";
import { ROOT_DIR } from "../../lib/migrate.ts";

const schema = buildSchema(fs.readFileSync(path.join(ROOT_DIR, "schema.graphql"), "utf8"));
let queryFields: string[];

beforeAll(() => {
  queryFields = Object.keys((schema.getQueryType() as GraphQLObjectType).getFields()).sort();
});

test("the Query type has exactly the operations built so far", () => {
  expect(queryFields).toEqual([
    "p2000Categories", "p2000Discipline", "p2000Disciplines", "p2000GripLevels", "p2000Qualifications",
    "p2000Region", "p2000Regions", "p2000Urgencies",
  ]);
});

test("no automatic CRUD, Node interface or connections", () => {
  const typeNames = Object.keys(schema.getTypeMap());
  expect(schema.getMutationType()).toBeUndefined();
  expect(typeNames).not.toContain("Node");
  expect(typeNames.filter((name) => /Connection$|Edge$|OrderBy$|Condition$/.test(name))).toEqual([]);
  expect(queryFields.filter((name) => name.startsWith("all") || name === "node" || name === "query")).toEqual([]);
});

test("return types match the spec", () => {
  const fields = (schema.getQueryType() as GraphQLObjectType).getFields();
  expect(String(fields.p2000Categories.type)).toBe("[P2000Category!]!");
  expect(String(fields.p2000Region.type)).toBe("P2000Region");
  expect(fields.p2000Region.args.map((a) => `${a.name}: ${a.type}`)).toEqual(["slug: String!"]);
  expect(fields.p2000Discipline.args.map((a) => `${a.name}: ${a.type}`)).toEqual(["uuid: String!"]);
  for (const list of ["p2000Regions", "p2000Urgencies", "p2000GripLevels", "p2000Qualifications"]) {
    expect(fields[list].args.map((a) => `${a.name}: ${a.type}`).sort()).toEqual(
      ["filter: P2000TaxonomyFilterInput", "first: Int", "page: Int"],
    );
  }
  expect(String(fields.p2000Disciplines.args.find((a) => a.name === "filter")!.type)).toBe("P2000DisciplineFilterInput");
  const region = schema.getType("P2000Region") as GraphQLObjectType;
  expect(Object.keys(region.getFields())).toEqual(expect.arrayContaining(["uuid", "number", "name", "slug", "capcodePrefix"]));
  const urgency = schema.getType("P2000Urgency") as GraphQLObjectType;
  expect(Object.keys(urgency.getFields())).toEqual(expect.arrayContaining(["uuid", "code", "name"]));
});
