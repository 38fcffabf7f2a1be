// Stylesheets are imported for their effect (esbuild bundles them into app.css).
declare module "*.css";
