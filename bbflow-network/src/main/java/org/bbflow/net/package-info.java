/**
 * TCP channels over Netty: remote inlets and outlets, codecs, distributed farms.
 */
package org.bbflow.net;
