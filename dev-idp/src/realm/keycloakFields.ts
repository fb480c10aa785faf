/**
 * Fields of Keycloak's representations that the dev IdP knows but does not implement.
 * They are ignored with one summary line, so a full `kc.sh export` loads without noise;
 * any field outside these lists and the implemented ones gets its own warning (likely a typo).
 */
export const IGNORED_REALM_FIELDS = new Set([
  'id', 'displayName', 'displayNameHtml', 'notBefore', 'defaultSignatureAlgorithm',
  'refreshTokenMaxReuse', 'ssoSessionIdleTimeoutRememberMe',
  'ssoSessionMaxLifespanRememberMe', 'offlineSessionIdleTimeout', 'offlineSessionMaxLifespanEnabled',
  'offlineSessionMaxLifespan', 'clientSessionIdleTimeout', 'clientSessionMaxLifespan',
  'clientOfflineSessionIdleTimeout', 'clientOfflineSessionMaxLifespan', 'accessCodeLifespan',
  'accessCodeLifespanUserAction', 'accessCodeLifespanLogin', 'actionTokenGeneratedByAdminLifespan',
  'actionTokenGeneratedByUserLifespan', 'oauth2DeviceCodeLifespan', 'oauth2DevicePollingInterval',
  'sslRequired', 'registrationAllowed', 'registrationEmailAsUsername', 'rememberMe', 'verifyEmail',
  'loginWithEmailAllowed', 'duplicateEmailsAllowed', 'resetPasswordAllowed', 'editUsernameAllowed',
  'bruteForceProtected', 'permanentLockout', 'maxTemporaryLockouts', 'maxFailureWaitSeconds',
  'minimumQuickLoginWaitSeconds', 'waitIncrementSeconds', 'quickLoginCheckMilliSeconds',
  'maxDeltaTimeSeconds', 'failureFactor', 'defaultRole', 'defaultRoles', 'groups', 'defaultGroups',
  'requiredCredentials', 'otpPolicyType', 'otpPolicyAlgorithm', 'otpPolicyInitialCounter', 'otpPolicyDigits',
  'otpPolicyLookAheadWindow', 'otpPolicyPeriod', 'otpPolicyCodeReusable', 'otpSupportedApplications',
  'webAuthnPolicyRpEntityName', 'webAuthnPolicySignatureAlgorithms', 'webAuthnPolicyRpId',
  'webAuthnPolicyAttestationConveyancePreference', 'webAuthnPolicyAuthenticatorAttachment',
  'webAuthnPolicyRequireResidentKey', 'webAuthnPolicyUserVerificationRequirement',
  'webAuthnPolicyCreateTimeout', 'webAuthnPolicyAvoidSameAuthenticatorRegister',
  'webAuthnPolicyAcceptableAaguids', 'webAuthnPolicyExtraOrigins', 'webAuthnPolicyPasswordlessRpEntityName',
  'webAuthnPolicyPasswordlessSignatureAlgorithms', 'webAuthnPolicyPasswordlessRpId',
  'webAuthnPolicyPasswordlessAttestationConveyancePreference',
  'webAuthnPolicyPasswordlessAuthenticatorAttachment', 'webAuthnPolicyPasswordlessRequireResidentKey',
  'webAuthnPolicyPasswordlessUserVerificationRequirement', 'webAuthnPolicyPasswordlessCreateTimeout',
  'webAuthnPolicyPasswordlessAvoidSameAuthenticatorRegister', 'webAuthnPolicyPasswordlessAcceptableAaguids',
  'webAuthnPolicyPasswordlessExtraOrigins', 'webAuthnPolicyPasswordlessPasskeysEnabled', 'scopeMappings',
  'clientScopeMappings', 'clientScopes', 'defaultDefaultClientScopes', 'defaultOptionalClientScopes',
  'browserSecurityHeaders', 'smtpServer', 'loginTheme', 'accountTheme', 'adminTheme', 'emailTheme',
  'eventsEnabled', 'eventsExpiration', 'eventsListeners', 'enabledEventTypes', 'adminEventsEnabled',
  'adminEventsDetailsEnabled', 'identityProviders', 'identityProviderMappers', 'components',
  'authenticationFlows',
  'authenticatorConfig', 'requiredActions', 'browserFlow', 'registrationFlow', 'directGrantFlow',
  'resetCredentialsFlow', 'clientAuthenticationFlow', 'dockerAuthenticationFlow', 'firstBrokerLoginFlow',
  'keycloakVersion', 'userManagedAccessAllowed', 'organizationsEnabled', 'verifiableCredentialsEnabled',
  'adminPermissionsEnabled', 'clientProfiles', 'clientPolicies', 'passwordPolicy', 'federatedUsers',
  'localizationTexts', 'users_count', 'oAuth2DeviceCodeLifespan', 'oAuth2DevicePollingInterval',
  'bruteForceStrategy', 'social', 'updateProfileOnInitialSocialLogin', 'socialProviders', 'applications',
  'oauthClients', 'clientTemplates', 'codeSecret', 'publicKey', 'privateKey', 'certificate',
]);

export const IGNORED_CLIENT_FIELDS = new Set([
  'id', 'name', 'description', 'type', 'rootUrl', 'adminUrl', 'baseUrl', 'surrogateAuthRequired',
  'alwaysDisplayInConsole', 'clientAuthenticatorType', 'notBefore', 'consentRequired',
  'serviceAccountsEnabled', 'authorizationServicesEnabled',
  'oauth2DeviceAuthorizationGrantEnabled', 'frontchannelLogout', 'protocol', 'authenticationFlowBindingOverrides',
  'fullScopeAllowed', 'nodeReRegistrationTimeout', 'registeredNodes', 'protocolMappers', 'defaultClientScopes',
  'optionalClientScopes', 'access', 'origin', 'registrationAccessToken', 'defaultRoles', 'authorizationSettings',
  'directGrantsOnly', 'useTemplateConfig', 'useTemplateScope', 'useTemplateMappers', 'clientTemplate',
]);

export const IGNORED_USER_FIELDS = new Set([
  'id', 'createdTimestamp', 'totp', 'disableableCredentialTypes', 'requiredActions', 'notBefore',
  'federationLink', 'serviceAccountClientId', 'attributes', 'groups', 'access', 'origin', 'self',
  'federatedIdentities', 'socialLinks', 'applicationRoles', 'clientConsents', 'userProfileMetadata',
]);

export const IGNORED_ROLE_FIELDS = new Set(['id', 'composite', 'composites', 'clientRole', 'containerId', 'attributes', 'scopeParamRequired']);

export const IGNORED_CREDENTIAL_FIELDS = new Set([
  'id', 'temporary', 'userLabel', 'createdDate', 'secretData', 'credentialData', 'priority', 'hashedSaltedValue',
  'salt', 'hashIterations', 'algorithm', 'digits', 'period', 'counter', 'device', 'config',
]);
