import { escapeXml } from '../xml.js';

/** The recording box's device description, as the real box publishes it (trimmed). */
export function boxDescriptionXml(opts: { udn: string; friendlyName: string }): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<root xmlns="urn:schemas-upnp-org:device-1-0" xmlns:dlna="urn:schemas-dlna-org:device-1-0">
  <specVersion><major>1</major><minor>0</minor></specVersion>
  <device>
    <deviceType>urn:schemas-upnp-org:device:MediaServer:1</deviceType>
    <dlna:X_DLNADOC>DMS-1.50</dlna:X_DLNADOC>
    <friendlyName>${escapeXml(opts.friendlyName)}</friendlyName>
    <manufacturer>Fetch Technologies Co., Ltd</manufacturer>
    <manufacturerURL>http://www.fetch.com/</manufacturerURL>
    <modelDescription>Fetch DLNA1.5 DMS</modelDescription>
    <modelName>Fetch DLNA1.5 DMS</modelName>
    <modelNumber>1.0</modelNumber>
    <UDN>${escapeXml(opts.udn)}</UDN>
    <serviceList>
      <service>
        <serviceType>urn:schemas-upnp-org:service:ConnectionManager:1</serviceType>
        <serviceId>urn:upnp-org:serviceId:ConnectionManager</serviceId>
        <SCPDURL>/web/cms.xml</SCPDURL>
        <controlURL>/web/cms_control</controlURL>
        <eventSubURL>/web/cms_event</eventSubURL>
      </service>
      <service>
        <serviceType>urn:schemas-upnp-org:service:ContentDirectory:1</serviceType>
        <serviceId>urn:upnp-org:serviceId:ContentDirectory</serviceId>
        <SCPDURL>/web/cds.xml</SCPDURL>
        <controlURL>/web/cds_control</controlURL>
        <eventSubURL>/web/cds_event</eventSubURL>
      </service>
    </serviceList>
  </device>
</root>`;
}

/** Another UPnP device on the LAN (a router): valid XML, not the box. */
export const routerDescriptionXml = `<?xml version="1.0"?>
<root xmlns="urn:schemas-upnp-org:device-1-0">
  <specVersion><major>1</major><minor>0</minor></specVersion>
  <device>
    <deviceType>urn:schemas-upnp-org:device:InternetGatewayDevice:1</deviceType>
    <friendlyName>Home Router</friendlyName>
    <manufacturer>Router Co</manufacturer>
    <manufacturerURL>http://router.example/</manufacturerURL>
    <modelName>RT-1</modelName>
    <UDN>uuid:router-0001</UDN>
  </device>
</root>`;

/** A device whose description is broken XML (it happens on real LANs). */
export const brokenDescriptionXml = `<?xml version="1.0"?>
<root xmlns="urn:schemas-upnp-org:device-1-0"><device><friendlyName>Smart TV & Co</friendlyName>
<manufacturerURL>http://www.fetch.com/</manufacturerURL><device></root`;
