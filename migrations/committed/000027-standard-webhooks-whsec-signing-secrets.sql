--! Previous: sha1:bf777a248fcd89da814fe6db24206cac772af2c1
--! Hash: sha1:e7ffed8b0453e04b057429d13224189eb7bc0bc9
--! Message: Standard Webhooks: signing secrets in the whsec_ form (existing secrets converted, same key bytes)

-- Standard Webhooks (https://www.standardwebhooks.com/): secrets are `whsec_` + base64 of the key.
-- A secret made before this is converted to `whsec_` + base64 of its UTF-8 bytes, so the HMAC
-- key and every receiver's check stay the same; receivers using the standard's libraries give
-- them the new form (docs/monitors.md).
update app_private.channel_secrets
   set signing_secret = 'whsec_' || replace(encode(convert_to(signing_secret, 'UTF8'), 'base64'), E'\n', '')
 where signing_secret !~ '^whsec_(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$';
