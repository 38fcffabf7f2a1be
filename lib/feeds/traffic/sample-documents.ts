// DATEX II situation publications in the two shapes the portal serves (v2 SOAP envelope, v3
// message container), written from a short list of incidents: the tests' fixtures and the
// benchmark's 20,000-record file go through the real parser and ingestion path with them.

export interface SampleIncident {
  id: string;
  version: number;
  /** roadworks stands for every record kind the feed carries but we do not keep. */
  type: "accident" | "breakdown" | "unattended" | "jam" | "roadworks";
  start: Date;
  end?: Date;
  /** No place: a record without a location. */
  latitude?: number;
  longitude?: number;
  roadNumber?: string;
  comment?: string;
  severity?: string;
  lanesRestricted?: number;
  /** A jam's delay and queue length. */
  delayMinutes?: number;
  queueLengthMetres?: number;
}

const iso = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, "Z");
const xml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function recordKind(type: SampleIncident["type"]): { xsiType: string; detail: string } {
  switch (type) {
    case "accident":
      return { xsiType: "Accident", detail: "accidentType>collision</" };
    case "breakdown":
      return { xsiType: "VehicleObstruction", detail: "vehicleObstructionType>brokenDownVehicle</" };
    case "unattended":
      return { xsiType: "VehicleObstruction", detail: "vehicleObstructionType>abandonedVehicle</" };
    case "jam":
      return { xsiType: "AbnormalTraffic", detail: "abnormalTrafficType>queuingTraffic</" };
    case "roadworks":
      return { xsiType: "MaintenanceWorks", detail: "roadMaintenanceType>roadworks</" };
  }
}

/** One record; `p(name)` prefixes an element name with the version's namespace. */
function recordXml(
  i: SampleIncident,
  situation: (name: string) => string,
  common: (name: string) => string,
  location: string,
): string {
  const { xsiType, detail } = recordKind(i.type);
  const [detailName] = detail.split(">");
  return [
    `<${situation("situation")} id="${i.id}">`,
    `<${situation("situationRecord")} xsi:type="${situation(xsiType)}" id="${i.id}_1" version="${i.version}">`,
    `<${situation("situationRecordCreationTime")}>${iso(i.start)}</${situation("situationRecordCreationTime")}>`,
    `<${situation("situationRecordVersionTime")}>${iso(new Date(i.start.getTime() + i.version * 60_000))}</${situation("situationRecordVersionTime")}>`,
    `<${situation("probabilityOfOccurrence")}>certain</${situation("probabilityOfOccurrence")}>`,
    i.severity ? `<${situation("severity")}>${i.severity}</${situation("severity")}>` : "",
    `<${situation("validity")}><${common("validityStatus")}>active</${common("validityStatus")}><${common("validityTimeSpecification")}>`,
    `<${common("overallStartTime")}>${iso(i.start)}</${common("overallStartTime")}>`,
    i.end ? `<${common("overallEndTime")}>${iso(i.end)}</${common("overallEndTime")}>` : "",
    `</${common("validityTimeSpecification")}></${situation("validity")}>`,
    i.lanesRestricted !== undefined
      ? `<${situation("impact")}><${situation("numberOfLanesRestricted")}>${i.lanesRestricted}</${situation("numberOfLanesRestricted")}></${situation("impact")}>`
      : "",
    i.delayMinutes !== undefined
      ? `<${situation("impact")}><${situation("delays")}><${situation("delayTimeValue")}>${i.delayMinutes * 60}.0</${situation("delayTimeValue")}></${situation("delays")}></${situation("impact")}>`
      : "",
    i.comment
      ? `<${situation("generalPublicComment")}><${situation("comment")}><${common("values")}><${common("value")} lang="nl">${xml(i.comment)}</${common("value")}></${common("values")}></${situation("comment")}></${situation("generalPublicComment")}>`
      : "",
    location,
    `<${situation(detailName)}>${detail.split(">")[1].replace("</", "")}</${situation(detailName)}>`,
    i.queueLengthMetres !== undefined
      ? `<${situation("queueLength")}>${i.queueLengthMetres}</${situation("queueLength")}>`
      : "",
    `</${situation("situationRecord")}>`,
    `</${situation("situation")}>`,
  ]
    .filter(Boolean)
    .join("");
}

/** DATEX II v2: SOAP envelope, default namespace, groupOfLocations/locationForDisplay. */
export function datexV2Xml(publicationTime: Date, incidents: SampleIncident[]): string {
  const plain = (name: string) => name;
  const records = incidents.map((i) =>
    recordXml(
      i,
      plain,
      plain,
      i.latitude === undefined
        ? ""
        : `<groupOfLocations xsi:type="Point"><locationForDisplay><latitude>${i.latitude}</latitude><longitude>${i.longitude}</longitude></locationForDisplay>` +
            (i.roadNumber
              ? `<supplementaryPositionalDescription><roadInformation><roadNumber>${i.roadNumber}</roadNumber></roadInformation></supplementaryPositionalDescription>`
              : "") +
            `</groupOfLocations>`,
    ),
  );
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<SOAP:Envelope xmlns:SOAP="http://schemas.xmlsoap.org/soap/envelope/"><SOAP:Body>`,
    `<d2LogicalModel xmlns="http://datex2.eu/schema/2/2_0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" modelBaseVersion="2">`,
    `<exchange><supplierIdentification><country>nl</country><nationalIdentifier>NLNDW</nationalIdentifier></supplierIdentification></exchange>`,
    `<payloadPublication xsi:type="SituationPublication" lang="nl"><publicationTime>${iso(publicationTime)}</publicationTime>`,
    `<publicationCreator><country>nl</country><nationalIdentifier>NLNDW</nationalIdentifier></publicationCreator>`,
    ...records,
    `</payloadPublication></d2LogicalModel></SOAP:Body></SOAP:Envelope>`,
    "",
  ].join("\n");
}

/** DATEX II v3: the message container with the sit:, loc: and com: namespaces. */
export function datexV3Xml(publicationTime: Date, incidents: SampleIncident[]): string {
  const sit = (name: string) => `sit:${name}`;
  const com = (name: string) => `com:${name}`;
  const records = incidents.map((i) =>
    recordXml(
      i,
      sit,
      com,
      i.latitude === undefined
        ? ""
        : `<sit:locationReference xsi:type="loc:PointLocation"><loc:pointByCoordinates><loc:pointCoordinates>` +
            `<loc:latitude>${i.latitude}</loc:latitude><loc:longitude>${i.longitude}</loc:longitude></loc:pointCoordinates></loc:pointByCoordinates>` +
            (i.roadNumber
              ? `<loc:supplementaryPositionalDescription><loc:roadInformation><loc:roadNumber>${i.roadNumber}</loc:roadNumber></loc:roadInformation></loc:supplementaryPositionalDescription>`
              : "") +
            `</sit:locationReference>`,
    ),
  );
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<mc:messageContainer xmlns:mc="http://datex2.eu/schema/3/messageContainer" xmlns:sit="http://datex2.eu/schema/3/situation" ` +
      `xmlns:loc="http://datex2.eu/schema/3/locationReferencing" xmlns:com="http://datex2.eu/schema/3/common" ` +
      `xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" modelBaseVersion="3">`,
    `<mc:payload xsi:type="sit:SituationPublication" lang="nl" modelBaseVersion="3"><com:publicationTime>${iso(publicationTime)}</com:publicationTime>`,
    `<com:publicationCreator><com:country>nl</com:country><com:nationalIdentifier>NLNDW</com:nationalIdentifier></com:publicationCreator>`,
    ...records,
    `</mc:payload></mc:messageContainer>`,
    "",
  ].join("\n");
}
