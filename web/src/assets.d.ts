// Stylesheets are imported for their effect (esbuild bundles them into app.css).
declare module "*.css";
// Data files the page fetches are imported for their URL: the build serves each under a name with
// its content's hash (lib/web/web-build.ts). A GeoJSON file is served as it is; data/woonplaatsen.csv
// as the place names the build makes from it (places-<hash>.json).
declare module "*.geojson" {
  const url: string;
  export default url;
}
declare module "*.csv" {
  const url: string;
  export default url;
}
