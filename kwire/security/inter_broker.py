"""The client side of broker-to-broker connections: Kafka's inter-broker security settings.

What it does
------------
``InterBrokerSecurity.from_config(config)`` takes what a ZooKeeper-mode Kafka 3.x
broker uses to connect to other brokers, from the ``BrokerConfig`` (which has
already checked ``inter.broker.listener.name`` / ``security.inter.broker.protocol``
and ``sasl.mechanism.inter.broker.protocol``, with Kafka's messages):

* the listener name: every broker connects to the *peer's* registered endpoint of
  that name (``endpoint(broker_info)``; Kafka's ``brokerEndPoint(interBrokerListenerName)``);
* SASL (``SASL_PLAINTEXT``, ``SASL_SSL``): the mechanism and the broker's own
  credentials, the ``username`` / ``password`` options of the listener's JAAS config
  for that mechanism (``listener.name.<l>.<mech>.sasl.jaas.config``, then the
  listener's or the broker's ``sasl.jaas.config``), as Kafka's KafkaServer login
  module section gives the broker the identity it logs in to other brokers with;
* TLS (``SSL``, ``SASL_SSL``): a client context from the listener's configs
  (``listener.name.<l>.ssl.*`` over ``ssl.*``): the truststore verifies the peer
  (without one, the system's CAs, as Java's default trust store), the keystore is
  the client certificate (TLS sends it only when the peer asks for one:
  ``ssl.client.auth`` required / requested), and
  ``ssl.endpoint.identification.algorithm`` (``https`` by default) checks the peer's
  host name against its certificate.

``connect`` (an asyncio protocol, for the replica fetchers), ``PeerLink`` (asyncio
streams, one request at a time: transaction markers, AddPartitionsToTxn
verification, the share-state persister), ``login`` (SASL over any async request
function) and ``client_security`` (a ``ClientSecurity`` for ``kwire.client.KafkaClient``,
the metrics lag lookups) are the one way kwire's brokers open connections to each other.

``PeerLink(security, (host, port), client_id, timeout_s)`` is a request/response
connection to one peer: ``await link.call(api_key, version, request)`` opens it on
first use (TLS, then the SASL login), frames and encodes the request with the next
correlation id, reads the answer (each step within ``timeout_s``), checks that the
answer carries that correlation id and decodes it. Calls on one link wait for each
other. Any failure or cancellation of a call closes the link and is raised to the
caller (an ``OSError``, ``asyncio.TimeoutError``, ``asyncio.IncompleteReadError``,
``SaslLoginError``, or a ``ValueError`` for an answer that does not decode or
correlate); the next call opens it again. What to retry and which error code a
failure becomes is the caller's decision. ``request_once(broker, node_id, ...)``
is one call on a link of its own to node ``node_id``'s inter-broker endpoint
(``NoEndpoint`` when the metadata has none), closed after the answer.

Every one of those connections (and the broker's ZooKeeper session, which takes
``source_address`` from here) is bound to the broker's source address:
``broker.source.address``, or by default the host of the broker's advertised
inter-broker endpoint when that is a loopback or local address
(``source_address_of``). On a one-machine cluster whose brokers listen on
127.0.0.11, 127.0.0.12, ... every peer then sees each broker's connections come
from that broker's own address, so a link can be cut by address (``kwire.nemesis``).

What it deliberately does not do
--------------------------------
* No GSSAPI or OAUTHBEARER login (``BrokerConfig`` refuses them for inter-broker SASL),
  no re-authentication (KIP-368) of long-lived connections: a fetcher connection whose
  session the peer expires is closed by the peer and opened again, with a new login.
* No configs of its own: it reads the broker's, once, at start-up (the listeners'
  security settings are read-only in kwire).
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
import ssl
from dataclasses import dataclass

from kwire.config.types import ConfigError
from kwire.protocol import codec
from kwire.config import jaas
from kwire.security.client import ClientSecurity, SaslLoginError, sasl_exchange

__all__ = ["InterBrokerSecurity", "NoEndpoint", "PeerLink", "SaslLoginError", "of", "request_once"]


@dataclass(frozen=True)
class InterBrokerSecurity:
    listener: str = "PLAINTEXT"
    protocol: str = "PLAINTEXT"
    mechanism: str | None = None
    username: str | None = None
    password: str | None = None
    context: ssl.SSLContext | None = None
    source_address: str | None = None  # the local address outgoing connections bind to

    @property
    def sasl(self) -> bool:
        return self.protocol in ("SASL_PLAINTEXT", "SASL_SSL")

    @classmethod
    def from_config(cls, config) -> "InterBrokerSecurity":
        """From a ``BrokerConfig`` (ConfigError: credentials or stores that cannot be used)."""
        from kwire.security import tls
        from kwire.config.security import _get

        if not config.zookeeper_connect:
            return cls()  # a single node has no peers to connect to
        listener = config.inter_broker_listener_name
        source = source_address_of(config)
        protocol = config.inter_broker_security_protocol

        def get(name: str):
            return _get(config, config.extra, listener, name)

        mechanism = username = password = None
        if protocol in ("SASL_PLAINTEXT", "SASL_SSL"):
            mechanism = str(config["sasl.mechanism.inter.broker.protocol"]).upper()
            key = f"listener.name.{listener.lower()}.{mechanism.lower()}.sasl.jaas.config"
            text = config.extra.get(key) or get("sasl.jaas.config")
            try:
                opts = jaas.parse(text)[2] if text else {}
            except ValueError as e:
                raise ConfigError(f"{key}: {e}", key) from None
            username, password = opts.get("username"), opts.get("password")
            if not username or password is None:
                raise ConfigError(f"{key}: the inter-broker listener {listener} uses SASL "
                                  f"{mechanism}, so its JAAS config needs the username and password "
                                  "this broker logs in to other brokers with", key)
        context = None
        if protocol in ("SSL", "SASL_SSL"):
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
            context.check_hostname = str(get("ssl.endpoint.identification.algorithm") or "") != ""
            context.verify_mode = ssl.CERT_REQUIRED
            if tls._load_truststore(context, get) == 0:
                context.load_default_certs()
            tls._load_keystore(context, get)  # presented only when the peer asks (ssl.client.auth)
        return cls(listener, protocol, mechanism, username, password, context, source)

    # -- where ---------------------------------------------------------------------------
    def endpoint(self, broker) -> tuple[str, int] | None:
        """The peer's (host, port) on the inter-broker listener; None when it registered none
        (a registration without endpoints, e.g. a single node's own entry: its host and port)."""
        endpoints = getattr(broker, "endpoints", None)
        if not endpoints:
            return broker.host, broker.port
        return endpoints.get(self.listener)

    # -- how -----------------------------------------------------------------------------
    def _connect_kwargs(self, host: str, timeout: float) -> dict:
        kwargs = {} if self.context is None else {"ssl": self.context, "server_hostname": host,
                                                   "ssl_handshake_timeout": timeout}
        if self.source_address:
            kwargs["local_addr"] = (self.source_address, 0)
        return kwargs

    async def connect(self, host: str, port: int, protocol_factory, timeout: float):
        """``loop.create_connection`` with this listener's TLS (no SASL yet: see ``login``)."""
        loop = asyncio.get_running_loop()
        kwargs = self._connect_kwargs(host, timeout)
        return await asyncio.wait_for(loop.create_connection(protocol_factory, host, port, **kwargs), timeout)

    async def login(self, call) -> None:
        """SASL on a connected peer: ``await call(api_key, version, request)`` gives the response.
        Raises ``SaslLoginError`` when the peer refuses the credentials or the mechanism."""
        if not self.sasl:
            return
        steps = sasl_exchange(self.mechanism, self.username, self.password)
        try:
            request = next(steps)
            while True:
                request = steps.send(await call(*request))
        except StopIteration:
            return

    def client_security(self) -> ClientSecurity | None:
        """For ``kwire.client.KafkaClient`` (blocking): None for PLAINTEXT."""
        if self.protocol == "PLAINTEXT":
            return None
        return ClientSecurity(protocol=self.protocol, mechanism=self.mechanism, username=self.username,
                              password=self.password, context=self.context)


def _is_local(ip: str) -> bool:
    """A loopback address, or one this machine can bind (an address of a local interface)."""
    try:
        if ipaddress.ip_address(ip).is_loopback:
            return True
    except ValueError:
        return False
    family = socket.AF_INET6 if ":" in ip else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_STREAM) as s:
            s.bind((ip, 0))
        return True
    except OSError:
        return False


def source_address_of(config) -> str | None:
    """The address this broker's outgoing connections bind to, or None (the kernel chooses).

    ``broker.source.address`` when set (empty: never bind); else the host of the advertised
    endpoint of the inter-broker listener when it is an address literal of a loopback or local
    address (a host name is left alone: it may resolve to another family than the peers')."""
    explicit = config.get("broker.source.address")
    if explicit is not None:
        return str(explicit).strip() or None
    listener = config.inter_broker_listener_name
    host = next((a.host for a in config.advertised_listeners if a.name == listener), None)
    if not host:
        return None
    try:  # an address literal only: a name may resolve to a family the peers' names do not
        ip = str(ipaddress.ip_address(host.strip("[]")))
    except ValueError:
        return None
    return ip if _is_local(ip) else None


_PLAINTEXT = InterBrokerSecurity()


def of(broker) -> InterBrokerSecurity:
    """The broker's inter-broker settings (``Broker.inter_broker``); plaintext when it has none."""
    return getattr(broker, "inter_broker", None) or _PLAINTEXT


def endpoint_of(broker, node_id: int) -> tuple[str, int] | None:
    """Node ``node_id``'s endpoint of ``broker``'s inter-broker listener, from its metadata."""
    sec = of(broker)
    for b in broker.metadata.brokers:
        if b.node_id == node_id:
            return sec.endpoint(b)
    return None


class NoEndpoint(ConnectionError):
    """The metadata names no endpoint of the inter-broker listener for that broker."""


class PeerLink:
    """A request/response connection to one peer broker (see the module docstring)."""

    def __init__(self, security: InterBrokerSecurity, addr: tuple[str, int], client_id: str,
                 timeout_s: float) -> None:
        self.security = security
        self.addr = addr
        self.client_id = client_id
        self.timeout_s = timeout_s
        self._lock = asyncio.Lock()
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._cid = 0

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
        self._reader = self._writer = None

    async def call(self, api_key: int, version: int, request):
        """The decoded answer to ``request``; raises (and closes the link) on any failure."""
        async with self._lock:
            try:
                if self._writer is None or self._writer.is_closing():
                    host, port = self.addr
                    kwargs = self.security._connect_kwargs(host, self.timeout_s)
                    self._reader, self._writer = await asyncio.wait_for(
                        asyncio.open_connection(host, port, **kwargs), self.timeout_s)
                    await self.security.login(self._exchange)
                return await self._exchange(api_key, version, request)
            except BaseException:
                self.close()  # a failed or cancelled exchange leaves the stream unusable
                raise

    async def _exchange(self, api_key: int, version: int, request):
        self._cid = (self._cid + 1) & 0x7FFFFFFF
        self._writer.write(codec.encode_request(api_key, version, self._cid, self.client_id, request))
        size = int.from_bytes(await asyncio.wait_for(self._reader.readexactly(4), self.timeout_s), "big")
        frame = await asyncio.wait_for(self._reader.readexactly(size), self.timeout_s)
        cid, response = codec.decode_response(api_key, version, memoryview(frame))
        if cid != self._cid:
            raise ValueError(f"answer with correlation id {cid} to request {self._cid}")
        return response


async def request_once(broker, node_id: int, api_key: int, version: int, request, client_id: str,
                       timeout_s: float):
    """``request`` to node ``node_id`` on a ``PeerLink`` of its own, closed after the answer."""
    addr = endpoint_of(broker, node_id)
    if addr is None:
        raise NoEndpoint(f"no endpoint of broker {node_id} on listener {of(broker).listener}")
    link = PeerLink(of(broker), addr, client_id, timeout_s)
    try:
        return await link.call(api_key, version, request)
    finally:
        link.close()
