// Demo traffic for a new installation (DEMO_DATA): a few incidents (two current, one closed) and a
// jam, written as DATEX II publications and stored through the real ingestion path with source
// "demo". Every comment says DEMO so nobody mistakes it for a real incident.
import { Readable } from "node:stream";
import type pg from "pg";
import { ingestTrafficDocument } from "./ingest.ts";
import { datexV2Xml, type SampleIncident } from "./sample-documents.ts";

const MINUTE = 60_000;

export async function loadTrafficDemo(db: pg.Pool | pg.ClientBase, now = new Date()): Promise<void> {
  const ago = (minutes: number) => new Date(now.getTime() - minutes * MINUTE);
  const incidents: SampleIncident[] = [
    {
      id: "DEMO_TRAFFIC_1",
      version: 1,
      type: "accident",
      start: ago(25),
      latitude: 52.0771,
      longitude: 4.9632,
      roadNumber: "A12",
      severity: "high",
      lanesRestricted: 2,
      comment: "DEMO: ongeval op de A12 richting Utrecht (synthetisch voorbeeld)",
    },
    {
      id: "DEMO_TRAFFIC_2",
      version: 1,
      type: "breakdown",
      start: ago(10),
      latitude: 52.3326,
      longitude: 4.8724,
      roadNumber: "A10",
      comment: "DEMO: pechgeval op de A10 Zuid (synthetisch voorbeeld)",
    },
    {
      id: "DEMO_TRAFFIC_3",
      version: 1,
      type: "unattended",
      start: ago(180),
      end: ago(120),
      latitude: 51.5853,
      longitude: 4.7705,
      roadNumber: "A16",
      comment: "DEMO: achtergelaten voertuig op de A16, opgeruimd (synthetisch voorbeeld)",
    },
  ];
  const jams: SampleIncident[] = [
    {
      id: "DEMO_JAM_1",
      version: 1,
      type: "jam",
      start: ago(30),
      latitude: 52.0907,
      longitude: 5.0331,
      roadNumber: "A12",
      delayMinutes: 18,
      queueLengthMetres: 4200,
    },
  ];
  // An hour old: the demo notifies no monitor (only live publications do).
  const published = ago(60);
  await ingestTrafficDocument(db, Readable.from([Buffer.from(datexV2Xml(published, incidents))]), "demo", "incidents");
  await ingestTrafficDocument(db, Readable.from([Buffer.from(datexV2Xml(published, jams))]), "demo", "jams");
}
