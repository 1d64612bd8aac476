/* The exporter-toolkit web configuration: YAML read by libyaml, bcrypt checked by
 * libxcrypt. Only what pmutop can honour is accepted; anything else is one line. A
 * password that passed bcrypt is remembered as its SHA-crypt under a salt of this run, so
 * a scraper's every request costs one cheap hash and bcrypt runs once per credential. */
#include "webconfig.h"

#include <crypt.h>
#include <errno.h>
#include <libgen.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <yaml.h>

#define PEM_MAX (1 << 20)

struct webuser {
	char *name;
	char *hash;
	char memo[CRYPT_OUTPUT_SIZE]; /* under mu: the last password bcrypt passed, or "" */
};

struct webconfig {
	char *cert, *key;
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

static int parse_tls(struct ctx *c, struct webconfig *w, yaml_node_t *m)
{
	if (w->cert || w->key)
		return fail(c, m, "tls_server_config is there twice");
	if (m->type != YAML_MAPPING_NODE)
		return fail(c, m, "tls_server_config must be a mapping");
	yaml_node_t *cert = NULL, *key = NULL;
	for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top;
	     p++) {
		yaml_node_t *k = yaml_document_get_node(c->doc, p->key);
		yaml_node_t *v = yaml_document_get_node(c->doc, p->value);
		const char *ks = scalar(k);
		if (!ks)
			return fail(c, k, "tls_server_config keys must be names");
		if (!strcmp(ks, "cert_file")) {
			cert = v;
		} else if (!strcmp(ks, "key_file")) {
			key = v;
		} else if (!strcmp(ks, "client_auth_type")) {
			const char *t = scalar(v);
			if (!is_null(v) && (!t || strcmp(t, "NoClientCert") != 0))
				return fail(c, k,
					    "client_auth_type %s is not supported: pmutop checks "
					    "no client certificates (use basic_auth_users)",
					    t ? t : "(not a name)");
		} else if (!strcmp(ks, "client_ca_file") || !strcmp(ks, "client_allowed_sans")) {
			if (!is_null(v))
				return fail(c, k,
					    "%s is not supported: pmutop checks no client "
					    "certificates (use basic_auth_users)",
					    ks);
		} else {
			return fail(c, k, "tls_server_config: %s is not supported by pmutop", ks);
		}
	}
	if (!cert || !key)
		return fail(c, m, "tls_server_config needs both cert_file and key_file");
	if (read_pem(c, cert, "cert_file", &w->cert) || read_pem(c, key, "key_file", &w->key))
		return -EINVAL;
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
		return fail(c, root, "expected a mapping (tls_server_config, basic_auth_users)");
	for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top;
	     p++) {
		yaml_node_t *k = yaml_document_get_node(c->doc, p->key);
		yaml_node_t *v = yaml_document_get_node(c->doc, p->value);
		const char *ks = scalar(k);
		int r;
		if (ks && !strcmp(ks, "tls_server_config"))
			r = is_null(v) ? 0 : parse_tls(c, w, v);
		else if (ks && !strcmp(ks, "basic_auth_users"))
			r = parse_users(c, w, v);
		else
			r = fail(c, k,
				 "unknown key %s (pmutop reads tls_server_config and "
				 "basic_auth_users)",
				 ks ? ks : "(not a name)");
		if (r)
			return r;
	}
	return 0;
}

struct webconfig *webconfig_load(const char *path, char *err, size_t errlen)
{
	struct ctx c = {.path = path, .err = err, .errlen = errlen};
	FILE *f = fopen(path, "re");
	if (!f) {
		fail(&c, NULL, "%s", strerror(errno));
		return NULL;
	}
	struct webconfig *w = calloc(1, sizeof(*w));
	if (w) {
		pthread_mutex_init(&w->mu, NULL);
		pthread_mutex_init(&w->bcrypt_mu, NULL);
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
	free(w->key);
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
