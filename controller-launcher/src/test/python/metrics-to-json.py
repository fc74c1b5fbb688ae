#!/usr/bin/python3
"""Reads Prometheus's text format on standard input with the Prometheus Python client's own parser
(prometheus_client.parser, Debian's python3-prometheus-client) and writes what it read as JSON on
standard output: [{"name", "type", "help", "samples": [{"name", "labels", "value"}]}]. A document the
parser refuses exits 1 with its error. Used by MetricsIT: the metrics are read by a real parser, not
by substrings."""
import json
import sys

from prometheus_client.parser import text_string_to_metric_families


def main():
    families = []
    try:
        for family in text_string_to_metric_families(sys.stdin.read()):
            families.append({
                "name": family.name,
                "type": family.type,
                "help": family.documentation,
                "samples": [{"name": s.name, "labels": s.labels, "value": s.value} for s in family.samples],
            })
    except Exception as e:  # the parser's refusal is the test's failure, with its reason
        print("not Prometheus text format: %s" % e, file=sys.stderr)
        return 1
    json.dump(families, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
