// Validates every document of the given Kubernetes manifests against the schema of its apiVersion and kind, as
// generated from Kubernetes' OpenAPI spec by kubernetes-models (npm). Exit code 1 when one is invalid or of a
// kind the package does not know. The schema checks types, enums, required fields and formats; it does not reject
// unknown fields (Kubernetes' OpenAPI spec allows them; the API server's strict field validation does not) — the
// parsed-manifest test, ManifestsTest, reads every field the service depends on.
import fs from "node:fs";
import yaml from "js-yaml";

let failed = 0;
for (const file of process.argv.slice(2)) {
  for (const doc of yaml.loadAll(fs.readFileSync(file, "utf8"))) {
    if (doc == null) continue;
    const where = `${file}: ${doc.kind} ${doc.metadata?.name ?? "(no name)"}`;
    const [group, version] = doc.apiVersion.includes("/") ? doc.apiVersion.split("/") : ["", doc.apiVersion];
    let model;
    try {
      model = (await import(`kubernetes-models/${group ? group + "/" : ""}${version}/${doc.kind}`))[doc.kind];
    } catch (e) {
      console.log(`UNKNOWN ${where}: no schema for ${doc.apiVersion} ${doc.kind}`);
      failed++;
      continue;
    }
    try {
      new model(doc).validate();
      console.log(`valid   ${where} (${doc.apiVersion})`);
    } catch (e) {
      console.log(`INVALID ${where}: ${e.message}`);
      failed++;
    }
  }
}
process.exit(failed ? 1 : 0);
