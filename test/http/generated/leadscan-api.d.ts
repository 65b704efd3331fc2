export interface paths {
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The process is up and the database takes writes */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The database answers */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/intake/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Post a lead
         * @description Anonymous; CORS open. Decisions in order: token shape → rate limit → source lookup → body (64 KiB) → honeypot → validation → bot check → store. 200 only after the lead is committed.
         */
        post: operations["postLead"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/scan/upload": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upload measured rooms
         * @description Stores the body byte for byte, and each room's own byte slice, in the Scans inbox of the workspace the `x-scan-key` belongs to. Answers only after the upload is durably committed. Any content type is read as UTF-8 JSON; a gzip, deflate or br body is decoded first and the decoded JSON is what is stored. `{"rooms":[]}` is a connection test: nothing is stored.
         */
        post: operations["uploadScan"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description application/problem+json error body */
        Problem: {
            /** @enum {boolean} */
            ok: false;
            /**
             * Format: uri
             * @description Documents the code
             */
            type: string;
            title: string;
            status: number;
            detail: string;
            /**
             * @description Stable snake_case error code
             * @example missing_contact
             */
            code: string;
            errors?: {
                field: string;
                code: string;
                message: string;
                max?: number;
            }[];
            requestId: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The process answers and the database took a test write */
            200: {
                headers: {
                    /** @description Identifies this request in the logs; a sane incoming x-request-id is echoed */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "ok": true,
                     *       "database": "writable"
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                        /** @enum {string} */
                        database: "writable";
                    };
                };
            };
            /** @description `uri_too_long`: the URL is over 8 KiB (refused before any route) */
            414: {
                headers: {
                    /** @description Identifies this request in the logs; a sane incoming x-request-id is echoed */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "ok": false,
                     *       "type": "http://localhost:3000/problems/uri_too_long",
                     *       "title": "URI too long",
                     *       "status": 414,
                     *       "detail": "The URL is longer than 8 KiB",
                     *       "code": "uri_too_long",
                     *       "requestId": "5d0c2a4e-8f1b-4c1e-9d5a-2b7e3f9c1a00"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database did not take a test write; `detail` says why (the disk is full, the database is read-only, it does not answer, or the write failed) */
            503: {
                headers: {
                    /** @description Identifies this request in the logs; a sane incoming x-request-id is echoed */
                    "x-request-id"?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "ok": false,
                     *       "type": "http://localhost:3000/problems/service_unavailable",
                     *       "title": "Service unavailable",
                     *       "status": 503,
                     *       "detail": "The database cannot take writes: the disk is full. Free space where the database lives (leadscan doctor says how much is free)",
                     *       "code": "service_unavailable",
                     *       "requestId": "5d0c2a4e-8f1b-4c1e-9d5a-2b7e3f9c1a00"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Identifies this request in the logs; a sane incoming x-request-id is echoed */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "ok": true
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                    };
                };
            };
            /** @description `uri_too_long`: the URL is over 8 KiB (refused before any route) */
            414: {
                headers: {
                    /** @description Identifies this request in the logs; a sane incoming x-request-id is echoed */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "ok": false,
                     *       "type": "http://localhost:3000/problems/uri_too_long",
                     *       "title": "URI too long",
                     *       "status": 414,
                     *       "detail": "The URL is longer than 8 KiB",
                     *       "code": "uri_too_long",
                     *       "requestId": "5d0c2a4e-8f1b-4c1e-9d5a-2b7e3f9c1a00"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database did not answer within 2 s; retry after `Retry-After` */
            503: {
                headers: {
                    /** @description Identifies this request in the logs; a sane incoming x-request-id is echoed */
                    "x-request-id"?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "ok": false,
                     *       "type": "http://localhost:3000/problems/service_unavailable",
                     *       "title": "Service unavailable",
                     *       "status": 503,
                     *       "detail": "The database is not answering",
                     *       "code": "service_unavailable",
                     *       "requestId": "5d0c2a4e-8f1b-4c1e-9d5a-2b7e3f9c1a00"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postLead: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same payload within 24 hours returns the first answer and stores nothing new; with a different payload 422; while the first is still running 409. Make a new one per submission, e.g. a UUID such as 9b2f6c1e-3d4a-4f7b-8c5d-0e1f2a3b4c5d. */
                "idempotency-key"?: string;
                /** @description gzip, deflate or br for a compressed body (decoded as it arrives; the body limit counts the decoded bytes); anything else is 415 unsupported_encoding */
                "content-encoding"?: string;
            };
            path: {
                /** @description The lead source's intake token (a UUID) */
                token: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Ada Lovelace",
                 *       "phone": "+1 415 555 0100",
                 *       "email": "ada@example.com",
                 *       "notes": "Kitchen remodel"
                 *     }
                 */
                "application/json": {
                    /** @description The lead's name. One of name, phone or email is required */
                    name?: string | number | boolean | null;
                    /** @description Any format; numbers are taken as text */
                    phone?: string | number | boolean | null;
                    /** @description No format check */
                    email?: string | number | boolean | null;
                    /** @description Postal address */
                    address?: string | number | boolean | null;
                    /** @description Free text; newlines kept */
                    notes?: string | number | boolean | null;
                    /** @description Alias of notes; when both are sent, notes wins and message is kept as an extra field */
                    message?: string | number | boolean | null;
                    /** @description Honeypot: leave empty. Any value makes the submission a bot catch (quarantined, no lead) */
                    website?: string | number | boolean | null;
                    /** @description Token from the bot-check widget, when the source has a bot check */
                    botCheckToken?: string | number | boolean | null;
                    /** @description The page the form was on (absolute http or https address); shown on the lead and in the CSV export. Its utm_source, utm_medium, utm_campaign, gclid and fbclid parameters are kept on the lead under those names */
                    pageUrl?: string | number | boolean | null;
                    /** @description Sent by the hosted form only: its signed render time. A post that carries it is checked as a hosted-form post (the source's own fields validated; a stamp under 2 seconds old, missing or forged is quarantined) */
                    formStamp?: string | number | boolean | null;
                } & {
                    [key: string]: unknown;
                };
                /**
                 * @example {
                 *       "name": "Ada Lovelace",
                 *       "phone": "+1 415 555 0100",
                 *       "email": "ada@example.com",
                 *       "notes": "Kitchen remodel"
                 *     }
                 */
                "application/x-www-form-urlencoded": {
                    /** @description The lead's name. One of name, phone or email is required */
                    name?: string | number | boolean | null;
                    /** @description Any format; numbers are taken as text */
                    phone?: string | number | boolean | null;
                    /** @description No format check */
                    email?: string | number | boolean | null;
                    /** @description Postal address */
                    address?: string | number | boolean | null;
                    /** @description Free text; newlines kept */
                    notes?: string | number | boolean | null;
                    /** @description Alias of notes; when both are sent, notes wins and message is kept as an extra field */
                    message?: string | number | boolean | null;
                    /** @description Honeypot: leave empty. Any value makes the submission a bot catch (quarantined, no lead) */
                    website?: string | number | boolean | null;
                    /** @description Token from the bot-check widget, when the source has a bot check */
                    botCheckToken?: string | number | boolean | null;
                    /** @description The page the form was on (absolute http or https address); shown on the lead and in the CSV export. Its utm_source, utm_medium, utm_campaign, gclid and fbclid parameters are kept on the lead under those names */
                    pageUrl?: string | number | boolean | null;
                    /** @description Sent by the hosted form only: its signed render time. A post that carries it is checked as a hosted-form post (the source's own fields validated; a stamp under 2 seconds old, missing or forged is quarantined) */
                    formStamp?: string | number | boolean | null;
                } & {
                    [key: string]: unknown;
                };
                /**
                 * @example {
                 *       "name": "Ada Lovelace",
                 *       "phone": "+1 415 555 0100",
                 *       "email": "ada@example.com",
                 *       "notes": "Kitchen remodel"
                 *     }
                 */
                "multipart/form-data": {
                    /** @description The lead's name. One of name, phone or email is required */
                    name?: string | number | boolean | null;
                    /** @description Any format; numbers are taken as text */
                    phone?: string | number | boolean | null;
                    /** @description No format check */
                    email?: string | number | boolean | null;
                    /** @description Postal address */
                    address?: string | number | boolean | null;
                    /** @description Free text; newlines kept */
                    notes?: string | number | boolean | null;
                    /** @description Alias of notes; when both are sent, notes wins and message is kept as an extra field */
                    message?: string | number | boolean | null;
                    /** @description Honeypot: leave empty. Any value makes the submission a bot catch (quarantined, no lead) */
                    website?: string | number | boolean | null;
                    /** @description Token from the bot-check widget, when the source has a bot check */
                    botCheckToken?: string | number | boolean | null;
                    /** @description The page the form was on (absolute http or https address); shown on the lead and in the CSV export. Its utm_source, utm_medium, utm_campaign, gclid and fbclid parameters are kept on the lead under those names */
                    pageUrl?: string | number | boolean | null;
                    /** @description Sent by the hosted form only: its signed render time. A post that carries it is checked as a hosted-form post (the source's own fields validated; a stamp under 2 seconds old, missing or forged is quarantined) */
                    formStamp?: string | number | boolean | null;
                } & {
                    [key: string]: unknown;
                };
                "text/plain": string;
            };
        };
        responses: {
            /** @description The lead is stored (or, for a honeypot hit, quarantined) */
            200: {
                headers: {
                    /** @description Identifies this request in the logs; a sane incoming x-request-id is echoed */
                    "x-request-id"?: string;
                    /** @description Always `*`: any site may post leads (no credentials) */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Headers a browser script may read */
                    "Access-Control-Expose-Headers"?: string;
                    /** @description Requests left in the current window (r) and seconds until it resets (t), draft-ietf-httpapi-ratelimit-headers-10; sent when the limit is on */
                    RateLimit?: string;
                    /** @description The quota (q) per window of w seconds; sent when the limit is on */
                    "RateLimit-Policy"?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same Idempotency-Key */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "ok": true,
                     *       "id": "lead_0193a4c2e8f07c3b9a1d2e4f5a6b7c8d"
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                        /** @description The lead id (lead_ + 32 hex digits) */
                        id: string;
                    };
                };
            };
            /** @description malformed_token, unreadable_body (also JSON nested deeper than 64 levels, or a body that is not what its Content-Encoding says), missing_contact, invalid_fields (one entry per field), bot_check_failed or invalid_idempotency_key */
            400: {
                headers: {
                    /** @description Identifies this request in the logs; a sane incoming x-request-id is echoed */
                    "x-request-id"?: string;
                    /** @description Always `*`: any site may post leads (no credentials) */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Headers a browser script may read */
                    "Access-Control-Expose-Headers"?: string;
                    /** @description Requests left in the current window (r) and seconds until it resets (t), draft-ietf-httpapi-ratelimit-headers-10; sent when the limit is on */
                    RateLimit?: string;
                    /** @description The quota (q) per window of w seconds; sent when the limit is on */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "ok": false,
                     *       "type": "http://localhost:3000/problems/invalid_fields",
                     *       "title": "Invalid fields",
                     *       "status": 400,
                     *       "detail": "1 field(s) need fixing; see errors",
                     *       "code": "invalid_fields",
                     *       "requestId": "5d0c2a4e-8f1b-4c1e-9d5a-2b7e3f9c1a00",
                     *       "errors": [
                     *         {
                     *           "field": "name",
                     *           "code": "too_long",
                     *           "max": 120,
                     *           "message": "name must be at most 120 characters"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Intake link unavailable */
            404: {
                headers: {
                    /** @description Identifies this request in the logs; a sane incoming x-request-id is echoed */
                    "x-request-id"?: string;
                    /** @description Always `*`: any site may post leads (no credentials) */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Headers a browser script may read */
                    "Access-Control-Expose-Headers"?: string;
                    /** @description Requests left in the current window (r) and seconds until it resets (t), draft-ietf-httpapi-ratelimit-headers-10; sent when the limit is on */
                    RateLimit?: string;
                    /** @description The quota (q) per window of w seconds; sent when the limit is on */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "ok": false,
                     *       "type": "http://localhost:3000/problems/intake_unavailable",
                     *       "title": "Intake link unavailable",
                     *       "status": 404,
                     *       "detail": "This intake link does not exist or has been closed",
                     *       "code": "intake_unavailable",
                     *       "requestId": "5d0c2a4e-8f1b-4c1e-9d5a-2b7e3f9c1a00"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    /** @description Identifies this request in the logs; a sane incoming x-request-id is echoed */
                    "x-request-id"?: string;
                    /** @description Always `*`: any site may post leads (no credentials) */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Headers a browser script may read */
                    "Access-Control-Expose-Headers"?: string;
                    /** @description Requests left in the current window (r) and seconds until it resets (t), draft-ietf-httpapi-ratelimit-headers-10; sent when the limit is on */
                    RateLimit?: string;
                    /** @description The quota (q) per window of w seconds; sent when the limit is on */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "ok": false,
                     *       "type": "http://localhost:3000/problems/method_not_allowed",
                     *       "title": "Method not allowed",
                     *       "status": 405,
                     *       "detail": "Post leads with POST",
                     *       "code": "method_not_allowed",
                     *       "requestId": "5d0c2a4e-8f1b-4c1e-9d5a-2b7e3f9c1a00"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request with this Idempotency-Key is in flight */
            409: {
                headers: {
                    /** @description Identifies this request in the logs; a sane incoming x-request-id is echoed */
                    "x-request-id"?: string;
                    /** @description Always `*`: any site may post leads (no credentials) */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Headers a browser script may read */
                    "Access-Control-Expose-Headers"?: string;
                    /** @description Requests left in the current window (r) and seconds until it resets (t), draft-ietf-httpapi-ratelimit-headers-10; sent when the limit is on */
                    RateLimit?: string;
                    /** @description The quota (q) per window of w seconds; sent when the limit is on */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "ok": false,
                     *       "type": "http://localhost:3000/problems/idempotency_in_flight",
                     *       "title": "Request with this Idempotency-Key is in flight",
                     *       "status": 409,
                     *       "detail": "A request with this Idempotency-Key is still being processed; retry in a moment to receive its answer",
                     *       "code": "idempotency_in_flight",
                     *       "requestId": "5d0c2a4e-8f1b-4c1e-9d5a-2b7e3f9c1a00"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `body_too_large`: over 64 KiB (decoded, for a compressed body) */
            413: {
                headers: {
                    /** @description Identifies this request in the logs; a sane incoming x-request-id is echoed */
                    "x-request-id"?: string;
                    /** @description Always `*`: any site may post leads (no credentials) */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Headers a browser script may read */
                    "Access-Control-Expose-Headers"?: string;
                    /** @description Requests left in the current window (r) and seconds until it resets (t), draft-ietf-httpapi-ratelimit-headers-10; sent when the limit is on */
                    RateLimit?: string;
                    /** @description The quota (q) per window of w seconds; sent when the limit is on */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "ok": false,
                     *       "type": "http://localhost:3000/problems/body_too_large",
                     *       "title": "Request body too large",
                     *       "status": 413,
                     *       "detail": "The intake accepts bodies up to 64 KiB",
                     *       "code": "body_too_large",
                     *       "requestId": "5d0c2a4e-8f1b-4c1e-9d5a-2b7e3f9c1a00"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported_encoding`: a Content-Encoding other than gzip, deflate, br or identity */
            415: {
                headers: {
                    /** @description Identifies this request in the logs; a sane incoming x-request-id is echoed */
                    "x-request-id"?: string;
                    /** @description Always `*`: any site may post leads (no credentials) */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Headers a browser script may read */
                    "Access-Control-Expose-Headers"?: string;
                    /** @description Requests left in the current window (r) and seconds until it resets (t), draft-ietf-httpapi-ratelimit-headers-10; sent when the limit is on */
                    RateLimit?: string;
                    /** @description The quota (q) per window of w seconds; sent when the limit is on */
                    "RateLimit-Policy"?: string;
                    /** @description The request Content-Encodings this endpoint reads */
                    "Accept-Encoding"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "ok": false,
                     *       "type": "http://localhost:3000/problems/unsupported_encoding",
                     *       "title": "Unsupported content encoding",
                     *       "status": 415,
                     *       "detail": "The Content-Encoding \"compress\" is not read here; send the body as it is, or with one of gzip, deflate, br",
                     *       "code": "unsupported_encoding",
                     *       "requestId": "5d0c2a4e-8f1b-4c1e-9d5a-2b7e3f9c1a00"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Idempotency-Key reused with a different payload */
            422: {
                headers: {
                    /** @description Identifies this request in the logs; a sane incoming x-request-id is echoed */
                    "x-request-id"?: string;
                    /** @description Always `*`: any site may post leads (no credentials) */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Headers a browser script may read */
                    "Access-Control-Expose-Headers"?: string;
                    /** @description Requests left in the current window (r) and seconds until it resets (t), draft-ietf-httpapi-ratelimit-headers-10; sent when the limit is on */
                    RateLimit?: string;
                    /** @description The quota (q) per window of w seconds; sent when the limit is on */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "ok": false,
                     *       "type": "http://localhost:3000/problems/idempotency_key_reused",
                     *       "title": "Idempotency-Key reused with a different payload",
                     *       "status": 422,
                     *       "detail": "This Idempotency-Key was already used with a different request body; send a new key for a new submission",
                     *       "code": "idempotency_key_reused",
                     *       "requestId": "5d0c2a4e-8f1b-4c1e-9d5a-2b7e3f9c1a00"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    /** @description Identifies this request in the logs; a sane incoming x-request-id is echoed */
                    "x-request-id"?: string;
                    /** @description Always `*`: any site may post leads (no credentials) */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Headers a browser script may read */
                    "Access-Control-Expose-Headers"?: string;
                    /** @description Requests left in the current window (r) and seconds until it resets (t), draft-ietf-httpapi-ratelimit-headers-10; sent when the limit is on */
                    RateLimit?: string;
                    /** @description The quota (q) per window of w seconds; sent when the limit is on */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "ok": false,
                     *       "type": "http://localhost:3000/problems/rate_limited",
                     *       "title": "Too many requests",
                     *       "status": 429,
                     *       "detail": "Too many requests; wait and try again",
                     *       "code": "rate_limited",
                     *       "requestId": "5d0c2a4e-8f1b-4c1e-9d5a-2b7e3f9c1a00"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Service unavailable */
            503: {
                headers: {
                    /** @description Identifies this request in the logs; a sane incoming x-request-id is echoed */
                    "x-request-id"?: string;
                    /** @description Always `*`: any site may post leads (no credentials) */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Headers a browser script may read */
                    "Access-Control-Expose-Headers"?: string;
                    /** @description Requests left in the current window (r) and seconds until it resets (t), draft-ietf-httpapi-ratelimit-headers-10; sent when the limit is on */
                    RateLimit?: string;
                    /** @description The quota (q) per window of w seconds; sent when the limit is on */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "ok": false,
                     *       "type": "http://localhost:3000/problems/service_unavailable",
                     *       "title": "Service unavailable",
                     *       "status": 503,
                     *       "detail": "The database is not answering; nothing was stored. Try again shortly",
                     *       "code": "service_unavailable",
                     *       "requestId": "5d0c2a4e-8f1b-4c1e-9d5a-2b7e3f9c1a00"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    uploadScan: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same payload within 24 hours returns the first answer and stores nothing new; with a different payload 422; while the first is still running 409. Make a new one per submission, e.g. a UUID such as 9b2f6c1e-3d4a-4f7b-8c5d-0e1f2a3b4c5d. */
                "idempotency-key"?: string;
                /** @description gzip, deflate or br for a compressed body (decoded as it arrives; the body limit counts the decoded bytes); anything else is 415 unsupported_encoding */
                "content-encoding"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Scan exchange v1 room objects; stored byte for byte as sent. An empty array tests the connection. */
                    rooms: ({
                        name?: string;
                    } & {
                        [key: string]: unknown;
                    })[];
                } & {
                    [key: string]: unknown;
                };
                "*/*": {
                    /** @description Scan exchange v1 room objects; stored byte for byte as sent. An empty array tests the connection. */
                    rooms: ({
                        name?: string;
                    } & {
                        [key: string]: unknown;
                    })[];
                } & {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description The upload is stored; for `rooms: []` the key is checked and nothing is stored */
            200: {
                headers: {
                    /** @description Identifies this request in the logs; a sane incoming x-request-id is echoed */
                    "x-request-id"?: string;
                    /** @description Requests left in the current window (r) and seconds until it resets (t), draft-ietf-httpapi-ratelimit-headers-10; sent when the limit is on */
                    RateLimit?: string;
                    /** @description The quota (q) per window of w seconds; sent when the limit is on */
                    "RateLimit-Policy"?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same Idempotency-Key */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "ok": true,
                     *       "count": 2
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                        /** @description Rooms stored; 0 for a connection test */
                        count: number;
                    };
                };
            };
            /** @description `unreadable_body` (not UTF-8 JSON, or not what its Content-Encoding says), `invalid_idempotency_key`, `invalid_rooms` (no `rooms` array, or an entry that is not an object; the detail names the index) or `too_many_rooms` (over 500) */
            400: {
                headers: {
                    /** @description Identifies this request in the logs; a sane incoming x-request-id is echoed */
                    "x-request-id"?: string;
                    /** @description Requests left in the current window (r) and seconds until it resets (t), draft-ietf-httpapi-ratelimit-headers-10; sent when the limit is on */
                    RateLimit?: string;
                    /** @description The quota (q) per window of w seconds; sent when the limit is on */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "ok": false,
                     *       "type": "http://localhost:3000/problems/invalid_rooms",
                     *       "title": "Invalid rooms",
                     *       "status": 400,
                     *       "detail": "rooms[2] is not a JSON object; every entry of \"rooms\" must be a room object (rooms count from 0)",
                     *       "code": "invalid_rooms",
                     *       "requestId": "5d0c2a4e-8f1b-4c1e-9d5a-2b7e3f9c1a00"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `missing_scan_key` (no `x-scan-key`) or `invalid_scan_key` (too short, unknown or regenerated away) */
            401: {
                headers: {
                    /** @description Identifies this request in the logs; a sane incoming x-request-id is echoed */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "ok": false,
                     *       "type": "http://localhost:3000/problems/invalid_scan_key",
                     *       "title": "Invalid scan key",
                     *       "status": 401,
                     *       "detail": "The x-scan-key is not a valid upload key; sign in at http://localhost:3000/login and copy the current key from the Scans screen (Show or Copy)",
                     *       "code": "invalid_scan_key",
                     *       "requestId": "5d0c2a4e-8f1b-4c1e-9d5a-2b7e3f9c1a00"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `idempotency_in_flight`: an upload with this Idempotency-Key is still being stored; retry after `Retry-After` */
            409: {
                headers: {
                    /** @description Identifies this request in the logs; a sane incoming x-request-id is echoed */
                    "x-request-id"?: string;
                    /** @description Requests left in the current window (r) and seconds until it resets (t), draft-ietf-httpapi-ratelimit-headers-10; sent when the limit is on */
                    RateLimit?: string;
                    /** @description The quota (q) per window of w seconds; sent when the limit is on */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "ok": false,
                     *       "type": "http://localhost:3000/problems/idempotency_in_flight",
                     *       "title": "Request with this Idempotency-Key is in flight",
                     *       "status": 409,
                     *       "detail": "A request with this Idempotency-Key is still being processed; retry in a moment to receive its answer",
                     *       "code": "idempotency_in_flight",
                     *       "requestId": "5d0c2a4e-8f1b-4c1e-9d5a-2b7e3f9c1a00"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `body_too_large`: the body is over SCAN_MAX_BYTES (32 MiB by default); nothing is stored */
            413: {
                headers: {
                    /** @description Identifies this request in the logs; a sane incoming x-request-id is echoed */
                    "x-request-id"?: string;
                    /** @description Requests left in the current window (r) and seconds until it resets (t), draft-ietf-httpapi-ratelimit-headers-10; sent when the limit is on */
                    RateLimit?: string;
                    /** @description The quota (q) per window of w seconds; sent when the limit is on */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "ok": false,
                     *       "type": "http://localhost:3000/problems/body_too_large",
                     *       "title": "Request body too large",
                     *       "status": 413,
                     *       "detail": "The request body is larger than this endpoint accepts",
                     *       "code": "body_too_large",
                     *       "requestId": "5d0c2a4e-8f1b-4c1e-9d5a-2b7e3f9c1a00"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported_encoding`: a Content-Encoding other than gzip, deflate, br or identity */
            415: {
                headers: {
                    /** @description Identifies this request in the logs; a sane incoming x-request-id is echoed */
                    "x-request-id"?: string;
                    /** @description Requests left in the current window (r) and seconds until it resets (t), draft-ietf-httpapi-ratelimit-headers-10; sent when the limit is on */
                    RateLimit?: string;
                    /** @description The quota (q) per window of w seconds; sent when the limit is on */
                    "RateLimit-Policy"?: string;
                    /** @description The request Content-Encodings this endpoint reads */
                    "Accept-Encoding"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "ok": false,
                     *       "type": "http://localhost:3000/problems/unsupported_encoding",
                     *       "title": "Unsupported content encoding",
                     *       "status": 415,
                     *       "detail": "The Content-Encoding \"compress\" is not read here; send the body as it is, or with one of gzip, deflate, br",
                     *       "code": "unsupported_encoding",
                     *       "requestId": "5d0c2a4e-8f1b-4c1e-9d5a-2b7e3f9c1a00"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `idempotency_key_reused`: this Idempotency-Key was used with a different body in the last 24 hours */
            422: {
                headers: {
                    /** @description Identifies this request in the logs; a sane incoming x-request-id is echoed */
                    "x-request-id"?: string;
                    /** @description Requests left in the current window (r) and seconds until it resets (t), draft-ietf-httpapi-ratelimit-headers-10; sent when the limit is on */
                    RateLimit?: string;
                    /** @description The quota (q) per window of w seconds; sent when the limit is on */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "ok": false,
                     *       "type": "http://localhost:3000/problems/idempotency_key_reused",
                     *       "title": "Idempotency-Key reused with a different payload",
                     *       "status": 422,
                     *       "detail": "This Idempotency-Key was already used with a different request body; send a new key for a new submission",
                     *       "code": "idempotency_key_reused",
                     *       "requestId": "5d0c2a4e-8f1b-4c1e-9d5a-2b7e3f9c1a00"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate_limited`: too many uploads for this key; wait for `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Identifies this request in the logs; a sane incoming x-request-id is echoed */
                    "x-request-id"?: string;
                    /** @description Requests left in the current window (r) and seconds until it resets (t), draft-ietf-httpapi-ratelimit-headers-10; sent when the limit is on */
                    RateLimit?: string;
                    /** @description The quota (q) per window of w seconds; sent when the limit is on */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "ok": false,
                     *       "type": "http://localhost:3000/problems/rate_limited",
                     *       "title": "Too many requests",
                     *       "status": 429,
                     *       "detail": "Too many requests; wait and try again",
                     *       "code": "rate_limited",
                     *       "requestId": "5d0c2a4e-8f1b-4c1e-9d5a-2b7e3f9c1a00"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is not answering; nothing was stored, retry */
            503: {
                headers: {
                    /** @description Identifies this request in the logs; a sane incoming x-request-id is echoed */
                    "x-request-id"?: string;
                    /** @description Requests left in the current window (r) and seconds until it resets (t), draft-ietf-httpapi-ratelimit-headers-10; sent when the limit is on */
                    RateLimit?: string;
                    /** @description The quota (q) per window of w seconds; sent when the limit is on */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "ok": false,
                     *       "type": "http://localhost:3000/problems/service_unavailable",
                     *       "title": "Service unavailable",
                     *       "status": 503,
                     *       "detail": "The database is not answering; nothing was stored. Try again shortly",
                     *       "code": "service_unavailable",
                     *       "requestId": "5d0c2a4e-8f1b-4c1e-9d5a-2b7e3f9c1a00"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
}
