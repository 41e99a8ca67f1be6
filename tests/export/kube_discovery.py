#!/usr/bin/env python3
"""A tiny Kubernetes API discovery server, for `kubectl create --dry-run=client` without a
cluster: kubectl still asks the server which kinds exist (GET /api, /apis and each group's
resource list) to map a manifest's apiVersion and kind to a resource, then builds the object
client-side. It serves the legacy discovery documents for core/v1, batch/v1 and apps/v1 only
(as an API server does, shapes from k8s.io/apimachinery metav1.APIVersions, APIGroupList and
APIResourceList); anything else is 404, so an unknown apiVersion or kind is refused."""
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

VERBS = ["create", "delete", "get", "list", "patch", "update", "watch"]


def resources(group_version, items):
    return {
        "kind": "APIResourceList",
        "apiVersion": "v1",
        "groupVersion": group_version,
        "resources": [
            {"name": name, "singularName": singular, "namespaced": True, "kind": kind,
             "verbs": VERBS}
            for name, singular, kind in items
        ],
    }


def group(name, version):
    gv = {"groupVersion": f"{name}/{version}", "version": version}
    return {"name": name, "versions": [gv], "preferredVersion": gv}


DOCUMENTS = {
    "/api": {"kind": "APIVersions", "versions": ["v1"],
             "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0",
                                             "serverAddress": "127.0.0.1"}]},
    "/apis": {"kind": "APIGroupList", "apiVersion": "v1",
              "groups": [group("batch", "v1"), group("apps", "v1")]},
    "/api/v1": resources("v1", [("pods", "pod", "Pod"), ("services", "service", "Service"),
                                ("namespaces", "namespace", "Namespace")]),
    "/apis/batch/v1": resources("batch/v1", [("jobs", "job", "Job"),
                                             ("cronjobs", "cronjob", "CronJob")]),
    "/apis/apps/v1": resources("apps/v1", [("deployments", "deployment", "Deployment"),
                                           ("statefulsets", "statefulset", "StatefulSet")]),
    "/version": {"major": "1", "minor": "32", "gitVersion": "v1.32.0"},
}


class Handler(BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 (http.server's name)
        document = DOCUMENTS.get(self.path.split("?")[0])
        body = json.dumps(document if document else {"kind": "Status", "code": 404}).encode()
        self.send_response(200 if document else 404)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def start():
    """Starts the server on a free port; returns (server, kubeconfig text)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    kubeconfig = f"""apiVersion: v1
kind: Config
clusters:
- name: discovery
  cluster: {{server: "http://127.0.0.1:{port}"}}
contexts:
- name: discovery
  context: {{cluster: discovery, user: nobody, namespace: default}}
users:
- name: nobody
  user: {{}}
current-context: discovery
"""
    return server, kubeconfig
