// Dutch national grid (RD New, EPSG:28992) to WGS84 latitude/longitude, with proj4 and the
// published EPSG definition (Bessel ellipsoid, 7-parameter datum shift).
import proj4 from "proj4";

const RD_NEW =
  "+proj=sterea +lat_0=52.15616055555555 +lon_0=5.38763888888889 +k=0.9999079 +x_0=155000 +y_0=463000 " +
  "+ellps=bessel +towgs84=565.417,50.3319,465.552,-0.398957,0.343988,-1.8774,4.0725 +units=m +no_defs";
const toWgs84 = proj4(RD_NEW, "WGS84");

export function rdToWgs84(x: number, y: number): { latitude: number; longitude: number } {
  const [longitude, latitude] = toWgs84.forward([x, y]);
  return { latitude: +latitude.toFixed(7), longitude: +longitude.toFixed(7) };
}
