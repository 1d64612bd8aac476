/* The exporter-toolkit web configuration: YAML read by libyaml, bcrypt checked by
 * libxcrypt. Only what pmutop can honour is accepted; anything else is one line. A
 * password that passed bcrypt is remembered as its SHA-crypt under a salt of this run, so
 * a scraper's every request costs one cheap hash and bcrypt runs once per credential. */
#include "webconfig.h"

#include "webtls.h"

#include <crypt.h>
#include <errno.h>
#include <libgen.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <yaml.h>

#define PEM_MAX (1 << 20)

struct webuser {
	char *name;
	char *hash;
	char memo[CRYPT_OUTPUT_SIZE]; /* under mu: the last password bcrypt passed, or "" */
};

struct webheader {
	const char *name;
	char *value;
};

struct webconfig {
	char *cert, *key;
	bool tls_seen, http_seen;
	struct webtls_opts tls;
	char priorities[1024]; /* GnuTLS's, with cert */
	enum webtls_client_auth auth;
	char *client_ca;
	char **sans;
	size_t nsans;
	struct webheader headers[8];
	size_t nheaders;
	struct webuser *users;
	size_t nusers;
	char setting[CRYPT_GENSALT_OUTPUT_SIZE]; /* SHA-crypt's salt for memos ("": none) */
	pthread_mutex_t mu;
	/* One bcrypt at a time: a stream of wrong passwords costs one CPU, not all. */
	pthread_mutex_t bcrypt_mu;
	unsigned long bcrypt_calls; /* under bcrypt_mu */
};

/* What an unknown user is checked against, so that it takes as long as a known one. */
static const char dummy_hash[] = "$2y$10$WT3EtsxsumZBzGRjiipouuy5.2WSrMicSO1yiJ6rsVLsSIIi8S8zO";

struct ctx {
	const char *path;
	yaml_document_t *doc;
	char *err;
	size_t errlen;
};

__attribute__((format(printf, 3, 4))) static int fail(struct ctx *c, const yaml_node_t *n,
						      const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (n)
		snprintf(c->err, c->errlen, "--web-config %s: line %zu: %s", c->path,
			 n->start_mark.line + 1, msg);
	else
		snprintf(c->err, c->errlen, "--web-config %s: %s", c->path, msg);
	return -EINVAL;
}

static const char *scalar(const yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static bool is_null(const yaml_node_t *n)
{
	const char *s = scalar(n);
	return !n || (s && n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
		      (!*s || !strcmp(s, "~") || !strcmp(s, "null")));
}

/* A file named in the config, relative to the config's folder. */
static int read_pem(struct ctx *c, const yaml_node_t *n, const char *what, char **out)
{
	const char *name = scalar(n);
	if (!name || !*name)
		return fail(c, n, "%s must be a file name", what);
	char full[4096];
	if (name[0] == '/') {
		snprintf(full, sizeof(full), "%s", name);
	} else {
		char *dup = strdup(c->path);
		if (!dup)
			return fail(c, n, "out of memory");
		snprintf(full, sizeof(full), "%s/%s", dirname(dup), name);
		free(dup);
	}
	FILE *f = fopen(full, "re");
	char *buf = f ? malloc(PEM_MAX + 1) : NULL;
	size_t len = buf ? fread(buf, 1, PEM_MAX + 1, f) : 0;
	int e = errno;
	bool bad = !f || !buf || ferror(f);
	if (f)
		fclose(f);
	if (bad || len == 0 || len > PEM_MAX) {
		free(buf);
		return fail(c, n, "cannot read %s %s: %s", what, full,
			    bad	  ? strerror(e)
			    : len ? "larger than 1 MiB"
				  : "empty file");
	}
	buf[len] = '\0';
	*out = buf;
	return 0;
}

/* A key of mapping m given before pair p: go-yaml's strict mode refuses it, libyaml keeps
 * both. */
static bool repeated(struct ctx *c, const yaml_node_t *m, const yaml_node_pair_t *p)
{
	const char *ks = scalar(yaml_document_get_node(c->doc, p->key));
	for (const yaml_node_pair_t *q = m->data.mapping.pairs.start; ks && q < p; q++) {
		const char *qs = scalar(yaml_document_get_node(c->doc, q->key));
		if (qs && !strcmp(qs, ks))
			return true;
	}
	return false;
}

/* A YAML boolean as go-yaml v2 reads one. */
static int boolean(struct ctx *c, const yaml_node_t *k, const yaml_node_t *v, bool *out)
{
	static const char *const yes[] = {"true", "yes", "on", "y"};
	static const char *const no[] = {"false", "no", "off", "n"};
	const char *s = scalar(v);
	for (size_t i = 0; s && v->data.scalar.style == YAML_PLAIN_SCALAR_STYLE && i < 4; i++) {
		if (!strcasecmp(s, yes[i]))
			return *out = true, 0;
		if (!strcasecmp(s, no[i]))
			return *out = false, 0;
	}
	return fail(c, k, "%s must be true or false", scalar(k));
}

/* A list of names, each turned into an index by lookup (-1: unknown). */
static int name_list(struct ctx *c, const yaml_node_t *k, const yaml_node_t *v,
		     int (*lookup)(const char *), const char *what, int *out, size_t *n)
{
	*n = 0;
	if (is_null(v))
		return 0;
	if (v->type != YAML_SEQUENCE_NODE)
		return fail(c, k, "%s must be a list", scalar(k));
	for (yaml_node_item_t *i = v->data.sequence.items.start; i < v->data.sequence.items.top;
	     i++) {
		yaml_node_t *e = yaml_document_get_node(c->doc, *i);
		const char *s = scalar(e);
		if (!s)
			return fail(c, e, "%s: each entry must be a name", scalar(k));
		int x = lookup(s);
		if (x < 0)
			return fail(c, e, "%s: unknown %s %s", scalar(k), what, s);
		if (*n == WEBTLS_MAX_LIST)
			return fail(c, e, "%s: more than %d entries", scalar(k), WEBTLS_MAX_LIST);
		out[(*n)++] = x;
	}
	return 0;
}

static int version(struct ctx *c, const yaml_node_t *k, const yaml_node_t *v,
		   enum webtls_version *out)
{
	const char *s = scalar(v);
	int x = s ? webtls_version(s) : -1;
	if (x < 0)
		return fail(c, k, "%s: unknown TLS version %s (TLS10, TLS11, TLS12 or TLS13)",
			    scalar(k), s ? s : "(not a name)");
	*out = (enum webtls_version)x;
	return 0;
}

/* PEM text given in the file itself (cert, key, client_ca). */
static int inline_pem(struct ctx *c, const yaml_node_t *v, const char *what, char **out)
{
	const char *s = scalar(v);
	if (!s || !*s)
		return fail(c, v, "%s must be PEM text", what);
	if (!(*out = strdup(s)))
		return fail(c, v, "out of memory");
	return 0;
}

/* At most one of FILE (cert_file) and TEXT (cert, the name without "_file"). */
static int one_of(struct ctx *c, yaml_node_t *file, yaml_node_t *text, const char *fname,
		  char **out)
{
	char tname[32];
	snprintf(tname, sizeof(tname), "%.*s", (int)(strlen(fname) - 5), fname);
	if (file && text)
		return fail(c, file, "give %s or %s, not both", fname, tname);
	if (file)
		return read_pem(c, file, fname, out);
	if (text)
		return inline_pem(c, text, tname, out);
	return 0;
}

struct tlskeys {
	yaml_node_t *cert_file, *key_file, *ca_file, *cert, *key, *ca, *auth, *sans;
};

static int parse_sans(struct ctx *c, struct webconfig *w, yaml_node_t *v)
{
	if (v->type != YAML_SEQUENCE_NODE)
		return fail(c, v, "client_allowed_sans must be a list");
	size_t n = (size_t)(v->data.sequence.items.top - v->data.sequence.items.start);
	if (n == 0)
		return fail(c, v, "client_allowed_sans is empty: no client certificate could pass");
	w->sans = calloc(n, sizeof(*w->sans));
	if (!w->sans)
		return fail(c, v, "out of memory");
	for (yaml_node_item_t *i = v->data.sequence.items.start; i < v->data.sequence.items.top;
	     i++) {
		yaml_node_t *e = yaml_document_get_node(c->doc, *i);
		const char *s = scalar(e);
		if (!s || !*s)
			return fail(c, e, "client_allowed_sans: each entry must be a name");
		if (!(w->sans[w->nsans] = strdup(s)))
			return fail(c, e, "out of memory");
		w->nsans++;
	}
	return 0;
}

/* Client certificates: the policy, its CAs and SANs, refused where they would not make
 * the policy they seem to. */
static int client_auth(struct ctx *c, struct webconfig *w, struct tlskeys *t)
{
	const char *a = t->auth && !is_null(t->auth) ? scalar(t->auth) : "";
	int x = a ? webtls_client_auth(a) : -1;
	if (x < 0)
		return fail(c, t->auth,
			    "client_auth_type: unknown %s (NoClientCert, RequestClientCert, "
			    "RequireAnyClientCert, VerifyClientCertIfGiven or "
			    "RequireAndVerifyClientCert)",
			    a ? a : "(not a name)");
	w->auth = (enum webtls_client_auth)x;
	if (one_of(c, t->ca_file, t->ca, "client_ca_file", &w->client_ca))
		return -EINVAL;
	if (w->client_ca && w->auth == WEBTLS_NO_CLIENT_CERT)
		return fail(c, t->ca_file ? t->ca_file : t->ca,
			    "client CAs are given without a client_auth_type that uses them "
			    "(RequireAndVerifyClientCert)");
	if (w->client_ca && !webtls_has_cert(w->client_ca))
		return fail(c, t->ca_file ? t->ca_file : t->ca,
			    "client_ca_file holds no PEM certificate GnuTLS can read");
	if (webtls_verifies(w->auth) && !w->client_ca)
		return fail(c, t->auth,
			    "client_auth_type %s needs client_ca_file: pmutop verifies client "
			    "certificates against it, not the system's CAs",
			    a);
	if (t->sans && !is_null(t->sans)) {
		if (w->auth != WEBTLS_REQUIRE_AND_VERIFY_CLIENT_CERT)
			return fail(c, t->sans,
				    "client_allowed_sans needs client_auth_type "
				    "RequireAndVerifyClientCert (a name in a certificate nobody "
				    "verified proves nothing)");
		return parse_sans(c, w, t->sans);
	}
	return 0;
}

static int parse_tls(struct ctx *c, struct webconfig *w, yaml_node_t *m)
{
	if (w->tls_seen)
		return fail(c, m, "tls_server_config is there twice");
	w->tls_seen = true;
	if (m->type != YAML_MAPPING_NODE)
		return fail(c, m, "tls_server_config must be a mapping");
	struct tlskeys t = {0};
	struct webtls_opts *o = &w->tls;
	for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top;
	     p++) {
		yaml_node_t *k = yaml_document_get_node(c->doc, p->key);
		yaml_node_t *v = yaml_document_get_node(c->doc, p->value);
		const char *ks = scalar(k);
		int r = 0;
		if (!ks)
			return fail(c, k, "tls_server_config keys must be names");
		if (repeated(c, m, p))
			return fail(c, k, "tls_server_config: %s is there twice", ks);
		if (!strcmp(ks, "cert_file"))
			t.cert_file = v;
		else if (!strcmp(ks, "key_file"))
			t.key_file = v;
		else if (!strcmp(ks, "client_ca_file"))
			t.ca_file = is_null(v) ? NULL : v;
		else if (!strcmp(ks, "cert"))
			t.cert = v;
		else if (!strcmp(ks, "key"))
			t.key = v;
		else if (!strcmp(ks, "client_ca"))
			t.ca = is_null(v) ? NULL : v;
		else if (!strcmp(ks, "client_auth_type"))
			t.auth = v;
		else if (!strcmp(ks, "client_allowed_sans"))
			t.sans = v;
		else if (!strcmp(ks, "min_version"))
			r = version(c, k, v, &o->min_version);
		else if (!strcmp(ks, "max_version"))
			r = version(c, k, v, &o->max_version);
		else if (!strcmp(ks, "cipher_suites"))
			r = name_list(c, k, v, webtls_cipher, "cipher suite", o->ciphers,
				      &o->nciphers);
		else if (!strcmp(ks, "curve_preferences"))
			r = name_list(c, k, v, webtls_curve,
				      "curve (CurveP256, CurveP384, CurveP521 or X25519)",
				      o->curves, &o->ncurves);
		else if (!strcmp(ks, "prefer_server_cipher_suites"))
			r = boolean(c, k, v, &o->prefer_server);
		else
			r = fail(c, k, "tls_server_config: unknown key %s", ks);
		if (r)
			return r;
	}
	if ((!t.cert_file && !t.cert) || (!t.key_file && !t.key))
		return fail(c, m, "tls_server_config needs both cert_file and key_file");
	if (one_of(c, t.cert_file, t.cert, "cert_file", &w->cert) ||
	    one_of(c, t.key_file, t.key, "key_file", &w->key) || client_auth(c, w, &t))
		return -EINVAL;
	char why[400];
	if (webtls_priorities(o, w->priorities, sizeof(w->priorities), why, sizeof(why)))
		return fail(c, m, "tls_server_config: %s", why);
	return 0;
}

/* exporter-toolkit's headers and the values it allows (NULL: any). */
static const struct {
	const char *name;
	const char *const values[3];
} headers[] = {
	{"Strict-Transport-Security", {NULL}},
	{"X-Content-Type-Options", {"nosniff", NULL}},
	{"X-Frame-Options", {"deny", "sameorigin", NULL}},
	{"X-XSS-Protection", {NULL}},
	{"Content-Security-Policy", {NULL}},
};

#define NHEADERS (sizeof(headers) / sizeof(headers[0]))

static int parse_header(struct ctx *c, struct webconfig *w, yaml_node_t *k, yaml_node_t *v)
{
	const char *name = scalar(k), *value = is_null(v) ? "" : scalar(v);
	size_t h = 0;
	while (h < NHEADERS && (!name || strcmp(headers[h].name, name) != 0))
		h++;
	if (h == NHEADERS)
		return fail(c, k,
			    "headers: %s cannot be set (Strict-Transport-Security, "
			    "X-Content-Type-Options, X-Frame-Options, X-XSS-Protection or "
			    "Content-Security-Policy)",
			    name ? name : "(not a name)");
	if (!value)
		return fail(c, v, "headers: %s must be a text", name);
	for (const char *s = value; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return fail(c, v, "headers: %s has a control character", name);
	bool ok = headers[h].values[0] == NULL;
	for (size_t i = 0; headers[h].values[i] && !ok; i++)
		ok = !strcmp(headers[h].values[i], value);
	if (!ok)
		return fail(c, v, "headers: %s must be %s%s%s, not \"%s\"", name,
			    headers[h].values[0], headers[h].values[1] ? " or " : "",
			    headers[h].values[1] ? headers[h].values[1] : "", value);
	for (size_t i = 0; i < w->nheaders; i++)
		if (!strcmp(w->headers[i].name, name))
			return fail(c, k, "headers: %s is there twice", name);
	if (!*value) /* unset if blank */
		return 0;
	struct webheader *x = &w->headers[w->nheaders];
	x->name = headers[h].name;
	if (!(x->value = strdup(value)))
		return fail(c, v, "out of memory");
	w->nheaders++;
	return 0;
}

static int parse_http(struct ctx *c, struct webconfig *w, yaml_node_t *m)
{
	if (w->http_seen)
		return fail(c, m, "http_server_config is there twice");
	w->http_seen = true;
	if (m->type != YAML_MAPPING_NODE)
		return fail(c, m, "http_server_config must be a mapping");
	for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top;
	     p++) {
		yaml_node_t *k = yaml_document_get_node(c->doc, p->key);
		yaml_node_t *v = yaml_document_get_node(c->doc, p->value);
		const char *ks = scalar(k);
		if (repeated(c, m, p))
			return fail(c, k, "http_server_config: %s is there twice", ks);
		if (ks && !strcmp(ks, "http2")) {
			bool on = false;
			if (boolean(c, k, v, &on))
				return -EINVAL;
			if (on)
				return fail(c, k,
					    "http2: true is not supported: libmicrohttpd speaks "
					    "HTTP/1.1 only (set http2: false)");
		} else if (ks && !strcmp(ks, "headers")) {
			if (is_null(v))
				continue;
			if (v->type != YAML_MAPPING_NODE)
				return fail(c, k, "headers must be a mapping");
			for (yaml_node_pair_t *h = v->data.mapping.pairs.start;
			     h < v->data.mapping.pairs.top; h++)
				if (parse_header(c, w, yaml_document_get_node(c->doc, h->key),
						 yaml_document_get_node(c->doc, h->value)))
					return -EINVAL;
		} else {
			return fail(c, k, "http_server_config: unknown key %s",
				    ks ? ks : "(not a name)");
		}
	}
	return 0;
}

static bool is_bcrypt(const char *h)
{
	return strlen(h) == 60 && h[0] == '$' && h[1] == '2' && strchr("aby", h[2]) && h[3] == '$';
}

static int parse_users(struct ctx *c, struct webconfig *w, yaml_node_t *m)
{
	if (w->users || w->nusers) /* libyaml keeps a repeated key */
		return fail(c, m, "basic_auth_users is there twice");
	if (is_null(m))
		return 0;
	if (m->type != YAML_MAPPING_NODE)
		return fail(c, m, "basic_auth_users must be a mapping of user: bcrypt hash");
	size_t n = (size_t)(m->data.mapping.pairs.top - m->data.mapping.pairs.start);
	w->users = calloc(n ? n : 1, sizeof(*w->users));
	if (!w->users)
		return fail(c, m, "out of memory");
	for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top;
	     p++) {
		yaml_node_t *k = yaml_document_get_node(c->doc, p->key);
		yaml_node_t *v = yaml_document_get_node(c->doc, p->value);
		const char *user = scalar(k), *hash = scalar(v);
		if (!user || !*user || strchr(user, ':'))
			return fail(c, k, "basic_auth_users: a user must be a name without ':'");
		if (!hash || !is_bcrypt(hash))
			return fail(c, v,
				    "basic_auth_users: %s: not a bcrypt hash ($2y$...; make one "
				    "with htpasswd -nBC 10 \"\" | tr -d ':\\n')",
				    user);
		for (size_t i = 0; i < w->nusers; i++)
			if (!strcmp(w->users[i].name, user))
				return fail(c, k, "basic_auth_users: %s is there twice", user);
		struct webuser *u = &w->users[w->nusers];
		u->name = strdup(user);
		u->hash = strdup(hash);
		if (!u->name || !u->hash) {
			free(u->name);
			free(u->hash);
			return fail(c, k, "out of memory");
		}
		w->nusers++;
	}
	return 0;
}

static int parse_root(struct ctx *c, struct webconfig *w)
{
	yaml_node_t *root = yaml_document_get_root_node(c->doc);
	if (is_null(root))
		return 0; /* an empty file: refused by webconfig_load */
	if (root->type != YAML_MAPPING_NODE)
		return fail(c, root,
			    "expected a mapping (tls_server_config, http_server_config, "
			    "basic_auth_users)");
	for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top;
	     p++) {
		yaml_node_t *k = yaml_document_get_node(c->doc, p->key);
		yaml_node_t *v = yaml_document_get_node(c->doc, p->value);
		const char *ks = scalar(k);
		int r;
		if (ks && !strcmp(ks, "tls_server_config"))
			r = is_null(v) ? 0 : parse_tls(c, w, v);
		else if (ks && !strcmp(ks, "http_server_config"))
			r = is_null(v) ? 0 : parse_http(c, w, v);
		else if (ks && !strcmp(ks, "basic_auth_users"))
			r = parse_users(c, w, v);
		else if (ks && !strcmp(ks, "rate_limit"))
			r = is_null(v) ? 0
				       : fail(c, k,
					      "rate_limit is not supported by pmutop (it limits "
					      "connections per client address instead)");
		else
			r = fail(c, k,
				 "unknown key %s (pmutop reads tls_server_config, "
				 "http_server_config and basic_auth_users)",
				 ks ? ks : "(not a name)");
		if (r)
			return r;
	}
	return 0;
}

struct webconfig *webconfig_load(const char *path, char *err, size_t errlen)
{
	struct ctx c = {.path = path, .err = err, .errlen = errlen};
	/* A directory fopen() opens (libyaml reads EISDIR as bad YAML); a FIFO's open waits
	 * for a writer. */
	struct stat st;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		fail(&c, NULL,
		     S_ISDIR(st.st_mode) ? "is a directory, not a file" : "not a regular file");
		return NULL;
	}
	FILE *f = fopen(path, "re");
	if (!f) {
		fail(&c, NULL, "%s", strerror(errno));
		return NULL;
	}
	struct webconfig *w = calloc(1, sizeof(*w));
	if (w) {
		pthread_mutex_init(&w->mu, NULL);
		pthread_mutex_init(&w->bcrypt_mu, NULL);
		/* exporter-toolkit's defaults */
		w->tls.min_version = WEBTLS_TLS12;
		w->tls.max_version = WEBTLS_TLS13;
		w->tls.prefer_server = true;
		if (!crypt_gensalt_rn("$5$", 1000, NULL, 0, w->setting, sizeof(w->setting)))
			w->setting[0] = '\0'; /* no memo: bcrypt every time */
	}
	yaml_parser_t parser;
	yaml_document_t doc;
	bool parsed = false;
	if (!w || !yaml_parser_initialize(&parser)) {
		fail(&c, NULL, "out of memory");
	} else {
		yaml_parser_set_input_file(&parser, f);
		parsed = yaml_parser_load(&parser, &doc);
		if (!parsed)
			snprintf(err, errlen, "--web-config %s: line %zu: not YAML: %s", path,
				 parser.problem_mark.line + 1,
				 parser.problem ? parser.problem : "cannot parse");
		yaml_parser_delete(&parser);
	}
	fclose(f);
	int r = -EINVAL;
	if (parsed) {
		c.doc = &doc;
		r = parse_root(&c, w);
		yaml_document_delete(&doc);
	}
	/* The toolkit serves plain HTTP to anyone for an empty file: a typo or a file not yet
	 * written must not look like protection. */
	if (!r && !w->cert && w->nusers == 0)
		r = fail(&c, NULL,
			 "sets neither tls_server_config nor basic_auth_users: it would serve "
			 "plain HTTP to anyone (leave out --web-config for that)");
	if (r) {
		/* One line: a reason quoted from a library or a file may hold a line break. */
		for (char *q = err; errlen && *q; q++)
			if ((unsigned char)*q < ' ')
				*q = ' ';
		webconfig_free(w);
		return NULL;
	}
	return w;
}

void webconfig_free(struct webconfig *w)
{
	if (!w)
		return;
	free(w->cert);
	if (w->key)
		explicit_bzero(w->key, strlen(w->key));
	free(w->key);
	free(w->client_ca);
	for (size_t i = 0; i < w->nsans; i++)
		free(w->sans[i]);
	free(w->sans);
	for (size_t i = 0; i < w->nheaders; i++)
		free(w->headers[i].value);
	for (size_t i = 0; i < w->nusers; i++) {
		free(w->users[i].name);
		free(w->users[i].hash);
	}
	free(w->users);
	pthread_mutex_destroy(&w->mu);
	pthread_mutex_destroy(&w->bcrypt_mu);
	explicit_bzero(w, sizeof(*w));
	free(w);
}

const char *webconfig_cert(const struct webconfig *w)
{
	return w->cert;
}

const char *webconfig_key(const struct webconfig *w)
{
	return w->key;
}

const char *webconfig_priorities(const struct webconfig *w)
{
	return w->cert ? w->priorities : NULL;
}

enum webtls_client_auth webconfig_client_auth(const struct webconfig *w)
{
	return w->auth;
}

const char *webconfig_client_ca(const struct webconfig *w)
{
	return w->client_ca;
}

char *const *webconfig_sans(const struct webconfig *w, size_t *n)
{
	*n = w->nsans;
	return w->sans;
}

size_t webconfig_nheaders(const struct webconfig *w)
{
	return w->nheaders;
}

void webconfig_header(const struct webconfig *w, size_t i, const char **name, const char **value)
{
	*name = w->headers[i].name;
	*value = w->headers[i].value;
}

size_t webconfig_nusers(const struct webconfig *w)
{
	return w->nusers;
}

/* Every byte is compared, whatever the first difference. */
static bool same(const char *a, const char *b, size_t n)
{
	unsigned char d = 0;
	for (size_t i = 0; i < n; i++)
		d |= (unsigned char)(a[i] ^ b[i]);
	return d == 0;
}

/* crypt_rn(password, setting) into out (CRYPT_OUTPUT_SIZE); false when it fails. */
static bool hash_into(const char *password, const char *setting, char *out)
{
	struct crypt_data *d = calloc(1, sizeof(*d));
	if (!d)
		return false;
	const char *h = crypt_rn(password, setting, d, (int)sizeof(*d));
	bool ok = h && h[0] == '$' && strlen(h) < CRYPT_OUTPUT_SIZE;
	if (ok)
		memcpy(out, h, strlen(h) + 1);
	explicit_bzero(d, sizeof(*d));
	free(d);
	return ok;
}

/* 1: PASSWORD is HASH's, 0: it is not, -EBUSY: other bcrypts kept it waiting too long. */
static int bcrypt_matches(struct webconfig *w, const char *password, const char *hash)
{
	struct timespec until;
	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_sec += WEBCONFIG_BCRYPT_WAIT;
	if (pthread_mutex_clocklock(&w->bcrypt_mu, CLOCK_MONOTONIC, &until))
		return -EBUSY;
	char out[CRYPT_OUTPUT_SIZE];
	w->bcrypt_calls++;
	bool ok = hash_into(password, hash, out);
	pthread_mutex_unlock(&w->bcrypt_mu);
	ok = ok && strlen(out) == strlen(hash) && same(out, hash, strlen(hash));
	explicit_bzero(out, sizeof(out));
	return ok;
}

int webconfig_check(struct webconfig *w, const char *user, const char *password)
{
	struct webuser *u = NULL;
	for (size_t i = 0; i < w->nusers; i++)
		if (!strcmp(w->users[i].name, user))
			u = &w->users[i];
	char memo[CRYPT_OUTPUT_SIZE] = "";
	/* Hashed for an unknown user too: it takes as long as a known one. */
	if (w->setting[0] && hash_into(password, w->setting, memo) && u) {
		pthread_mutex_lock(&w->mu);
		size_t n = strlen(memo);
		bool hit = strlen(u->memo) == n && same(u->memo, memo, n);
		pthread_mutex_unlock(&w->mu);
		if (hit)
			return 1;
	}
	int r = bcrypt_matches(w, password, u ? u->hash : dummy_hash);
	if (r < 0)
		return r;
	bool ok = r == 1 && u != NULL;
	if (ok && memo[0]) {
		pthread_mutex_lock(&w->mu);
		memcpy(u->memo, memo, sizeof(memo));
		pthread_mutex_unlock(&w->mu);
	}
	return ok;
}

unsigned long webconfig_bcrypt_calls(struct webconfig *w)
{
	pthread_mutex_lock(&w->bcrypt_mu);
	unsigned long n = w->bcrypt_calls;
	pthread_mutex_unlock(&w->bcrypt_mu);
	return n;
}
