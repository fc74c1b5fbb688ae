#!/usr/bin/python3
"""Calls one verb of the mesh's controller over RabbitMQ, as docs/design.md section 8 has it, and prints the
JSON-RPC response on standard output. A client of the wire contract written without the controller's
code (Python and pika, from Debian's python3-pika): the integration tests use it to check that a
client that is not Java is answered.

  mesh-call.py [--host H] [--port P] [--vhost V] [--user U] [--password-file F] VERB [ARGUMENTS-JSON]

The password is read from --password-file (never from the command line) or is "guest". Exit codes:
0 answered (also with a tool error: read result.isError), 3 no answer within --timeout seconds,
2 bad arguments.
"""
import argparse
import json
import sys
import uuid

import pika


def main():
    parser = argparse.ArgumentParser(description="Call a verb of the mesh controller over the broker.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=5672)
    parser.add_argument("--vhost", default="/")
    parser.add_argument("--user", default="guest")
    parser.add_argument("--password-file")
    parser.add_argument("--timeout", type=float, default=10.0)
    parser.add_argument("verb")
    parser.add_argument("arguments", nargs="?", default="{}")
    args = parser.parse_args()
    try:
        arguments = json.loads(args.arguments)
    except ValueError as e:
        print("the arguments are not JSON: %s" % e, file=sys.stderr)
        return 2
    password = "guest"
    if args.password_file:
        with open(args.password_file, encoding="utf-8") as f:
            password = f.read().strip()

    connection = pika.BlockingConnection(pika.ConnectionParameters(
        host=args.host, port=args.port, virtual_host=args.vhost,
        credentials=pika.PlainCredentials(args.user, password)))
    channel = connection.channel()
    answer = {}
    correlation = str(uuid.uuid4())

    def on_reply(ch, method, properties, body):
        if properties.correlation_id == correlation:
            answer["body"] = body
            answer["headers"] = properties.headers or {}

    channel.basic_consume("amq.rabbitmq.reply-to", on_reply, auto_ack=True)
    request = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
               "params": {"name": args.verb, "arguments": arguments}}
    channel.basic_publish(
        exchange="", routing_key="mesh-controller.verbs",
        properties=pika.BasicProperties(reply_to="amq.rabbitmq.reply-to", correlation_id=correlation,
                                        user_id=args.user, message_id=str(uuid.uuid4()),
                                        content_type="application/json"),
        body=json.dumps(request).encode("utf-8"))
    connection.process_data_events(time_limit=0)
    deadline = args.timeout
    while "body" not in answer and deadline > 0:
        connection.process_data_events(time_limit=0.1)
        deadline -= 0.1
    connection.close()
    if "body" not in answer:
        print("no controller answered on mesh-controller.verbs within %s s" % args.timeout, file=sys.stderr)
        return 3
    response = json.loads(answer["body"])
    response["_headers"] = {k: (v.decode() if isinstance(v, bytes) else v) for k, v in answer["headers"].items()}
    print(json.dumps(response))
    return 0


if __name__ == "__main__":
    sys.exit(main())
