"""Command-line tools: ``kwire topics``, ``produce``, ``consume``, ``groups`` (``bench`` is kwire.bench).

Each module has ``main(argv) -> exit code`` (0 ok, 1 broker or operation
error, 2 usage error) and talks to a broker only through ``kwire.client``.
Options follow Kafka's own scripts (kafka-topics.sh, kafka-console-producer.sh,
kafka-console-consumer.sh, kafka-consumer-groups.sh), with kcat's output format string for consume.
"""
