<#-- keycloak.v2's login-password.ftl, which the realm's step-up (level 2: the password form again) shows to a visitor
     who is already signed in: titled and explained as a confirmation instead of "Sign In". -->
<#import "template.ftl" as layout>
<#import "field.ftl" as field>
<#import "buttons.ftl" as buttons>
<#import "passkeys.ftl" as passkeys>
<@layout.registrationLayout displayMessage=!messagesPerField.existsError('password'); section>
<!-- template: login-password.ftl (gatehouse) -->
    <#if section = "header">
        ${msg("gatehouseConfirmTitle")}
    <#elseif section = "form">
        <div id="kc-form">
            <div id="kc-form-wrapper">
                <p id="gatehouse-confirm-why" class="pf-v5-u-mb-md">${msg("gatehouseConfirmWhy")}</p>
                <form id="kc-form-login" class="${properties.kcFormClass!}" onsubmit="login.disabled = true; return true;" action="${url.loginAction}" method="post">
                    <@field.password name="password" label=msg("password") forgotPassword=realm.resetPasswordAllowed autofocus=true autocomplete="current-password" />
                    <@buttons.loginButton />
                </form>
            </div>
        </div>
        <@passkeys.conditionalUIData />
    </#if>

</@layout.registrationLayout>
