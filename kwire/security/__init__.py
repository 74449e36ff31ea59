"""Security: TLS listeners, SASL authentication, SCRAM credentials, ACLs, client quotas (issue 14).

The start-up checks of the ssl.* / sasl.* / authorizer settings and the JAAS
parser are in the config layer below (``kwire.config.security``, ``kwire.config.jaas``).

* ``principal`` — KafkaPrincipal and the principal of a TLS peer (its DN, mapping rules).
* ``tls`` — ``ssl.SSLContext`` for a listener from Kafka's ``ssl.*`` configs (JKS, PKCS12, PEM).
* ``plain`` / ``scram`` / ``oauthbearer`` — SASL mechanism servers as sans-I/O state
  machines; ``scram`` also holds Kafka's credential format (salted, iterated).
* ``session`` — one connection's security state (listener, protocol, SASL progress,
  principal, KIP-368 expiry) and which requests it may send yet.
* ``acl`` / ``authorizer`` — Kafka's ACL model and the ``authorize`` call handlers make;
  ``CLUSTER_GATED`` APIs are checked by the server before their handler runs.
* ``client_quotas`` — the quota table's precedence (user / client id) and Kafka's windowed rate.
* ``request_quotas`` — what a response is throttled for: byte rates, ``request_percentage``
  (KIP-124, time on the event loop) and the controller mutation throttle.
* ``mutation_quota`` — ``controller_mutation_rate`` (KIP-599): a token bucket per client that
  CreateTopics / CreatePartitions / DeleteTopics take partitions from.
* ``connection_quotas`` — connection creation rates (KIP-612): ``max.connection.creation.rate``
  (broker, listener) delays accepting; an ip's ``connection_creation_rate`` closes the excess.
* ``manager`` — ``SecurityManager``: built once per server from the config; TLS contexts,
  sessions, mechanism servers, the authorizer, quotas, per-listener endpoints.
* ``zk_store`` — credentials, ACLs and quotas in Kafka's znodes (cluster mode).
* ``client`` — TLS and SASL for kwire's own tools (``kwire users``, ``kwire acls``).

Only ``zk_store`` talks to ZooKeeper and only ``tls`` reads key files; sockets are
``kwire.server``'s, which wraps them with the contexts and feeds SASL tokens through the
SaslHandshake / SaslAuthenticate handlers.
"""
