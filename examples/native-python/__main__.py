"""Users and a staging configuration on one Kasm installation, through an explicit provider.

Configuration: kasmBaseUrl, kasmApiKey, kasmApiKeySecret (secret), adaPassword (secret), zoneId,
imageId; kasmApiNames (product for a released Kasm; default: the API documentation's names),
adaFirstName (default Ada). The provider keeps the API key secret and the password
secret in the state whether or not the configuration marks them.
"""
import pulumi
import pulumi_kasm as kasm

config = pulumi.Config()

prod = kasm.Provider(
    "prod",
    base_url=config.require("kasmBaseUrl"),
    api_key=config.require("kasmApiKey"),
    api_key_secret=config.require_secret("kasmApiKeySecret"),
    # "product" for a released Kasm (1.15 or later); the API documentation's names when left out.
    api_names=config.get("kasmApiNames"),
)
on_prod = pulumi.ResourceOptions(provider=prod)

ada = kasm.User(
    "ada",
    username="ada",
    password=config.require_secret("adaPassword"),
    first_name=config.get("adaFirstName") or "Ada",
    opts=on_prod,
)

chrome = kasm.StagingConfig(
    "chrome",
    zone_id=config.require("zoneId"),
    image_id=config.require("imageId"),
    num_sessions=3,
    expiration=2,
    opts=on_prod,
)

team = kasm.UserSet(
    "team",
    users=[
        kasm.UserSetUsersArgs(username="lin", first_name="Lin"),
        kasm.UserSetUsersArgs(username="mo", first_name="Mo"),
    ],
    opts=on_prod,
)

pulumi.export("adaUserId", ada.user_id)
pulumi.export("stagingConfigId", chrome.staging_config_id)
pulumi.export("teamCount", team.count)
