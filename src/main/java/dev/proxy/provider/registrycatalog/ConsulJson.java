package dev.proxy.provider.registrycatalog;

import io.micronaut.json.tree.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Consul's JSON answers to records; a missing or mistyped field reads as empty, a non-object entry is refused. */
final class ConsulJson {

    private ConsulJson() {
    }

    /** One entry of {@code /v1/health/service/<name>} or {@code /v1/health/connect/<name>}. */
    static CatalogItem item(String service, JsonNode entry, boolean connect) {
        JsonNode node = entry.get("Node");
        JsonNode svc = entry.get("Service");
        if (node == null || svc == null || !node.isObject() || !svc.isObject()) {
            throw new ConsulException("health entry of " + service + " without Node or Service", 0);
        }
        String address = text(svc, "Address");
        if (address.isEmpty()) {
            address = text(node, "Address");
        }
        List<CheckStatus.Check> checks = new ArrayList<>();
        JsonNode list = entry.get("Checks");
        if (list != null && list.isArray()) {
            for (JsonNode c : list.values()) {
                checks.add(new CheckStatus.Check(text(c, "CheckID"), text(c, "Status")));
            }
        }
        JsonNode port = svc.get("Port");
        return new CatalogItem(service, text(svc, "ID"), text(node, "Node"), address,
                port != null && port.isNumber() ? port.getIntValue() : 0, strings(svc.get("Tags")),
                map(svc.get("Meta")), text(svc, "Namespace"), text(node, "Datacenter"),
                CheckStatus.aggregate(checks), connect);
    }

    static CatalogClient.CaRoots roots(JsonNode json) {
        String active = text(json, "ActiveRootID");
        List<String> pems = new ArrayList<>();
        JsonNode roots = json.get("Roots");
        if (roots != null && roots.isArray()) {
            for (JsonNode r : roots.values()) {
                String pem = text(r, "RootCert");
                if (pem.isEmpty()) {
                    continue;
                }
                if (text(r, "ID").equals(active)) {
                    pems.add(0, pem);
                } else {
                    pems.add(pem);
                }
            }
        }
        return new CatalogClient.CaRoots(text(json, "TrustDomain"), pems);
    }

    static String text(JsonNode object, String field) {
        JsonNode v = object == null ? null : object.get(field);
        return v != null && v.isString() ? v.getStringValue() : "";
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        if (array != null && array.isArray()) {
            array.values().forEach(v -> {
                if (v.isString()) {
                    out.add(v.getStringValue());
                }
            });
        }
        return out;
    }

    private static Map<String, String> map(JsonNode object) {
        Map<String, String> out = new LinkedHashMap<>();
        if (object != null && object.isObject()) {
            object.entries().forEach(e -> {
                if (e.getValue().isString()) {
                    out.put(e.getKey(), e.getValue().getStringValue());
                }
            });
        }
        return out;
    }
}
